import { useState } from 'react';
import { Avatar, Button, Dropdown, Layout, Menu, Space, Tag, type MenuProps } from 'antd';
import {
  AuditOutlined,
  BarChartOutlined,
  BankOutlined,
  DashboardOutlined,
  LogoutOutlined,
  ProfileOutlined,
  StopOutlined,
  SafetyOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { AdminRole } from '@showtix/shared-types';
import { useAuth } from '../auth/AuthContext';
import { ROLE_LABEL } from '../utils/format';

const { Sider, Header, Content } = Layout;

const NAV: { key: string; label: string; icon: React.ReactNode; roles: AdminRole[] }[] = [
  { key: '/dashboard', label: '销售看板', icon: <DashboardOutlined />, roles: ['operator'] },
  { key: '/shows', label: '演出与场次', icon: <VideoCameraOutlined />, roles: ['operator'] },
  { key: '/venues', label: '场馆与座位图', icon: <BankOutlined />, roles: ['operator'] },
  { key: '/orders', label: '订单管理', icon: <ProfileOutlined />, roles: ['operator'] },
  { key: '/reports', label: '报表', icon: <BarChartOutlined />, roles: ['operator'] },
  { key: '/staff', label: '检票人员', icon: <TeamOutlined />, roles: ['staff_manager'] },
  { key: '/risk', label: '风控与黑名单', icon: <StopOutlined />, roles: ['operator'] },
  { key: '/ops', label: '运维处理', icon: <ToolOutlined />, roles: ['operator'] },
  { key: '/degrade', label: '熔断降级', icon: <ThunderboltOutlined />, roles: ['operator'] },
  { key: '/audit', label: '操作日志', icon: <AuditOutlined />, roles: ['operator'] },
  { key: '/admins', label: '账号与权限', icon: <SafetyOutlined />, roles: ['admin'] },
];

export function AppLayout() {
  const { admin, can, logout } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(false);
  const items = NAV.filter((n) => can(...n.roles)).map(({ key, label, icon }) => ({ key, label, icon }));
  const selected = items.find(
    (i) => pathname.startsWith(i.key) || (i.key === '/shows' && pathname.startsWith('/sessions')),
  )?.key;
  const userMenu: MenuProps['items'] = [
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', onClick: () => void logout() },
  ];
  return (
    // The menu stays in view while a long page scrolls; the dark background continues below it.
    <Layout style={{ minHeight: '100vh', background: '#001529' }}>
      <Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        width={208}
        theme="dark"
        style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
      >
        <div className="brand">
          {collapsed ? (
            '票'
          ) : (
            <>
              演出票务<small>管理后台</small>
            </>
          )}
        </div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={selected ? [selected] : []}
          items={items}
          onClick={(e) => navigate(e.key)}
        />
      </Sider>
      <Layout style={{ background: '#f5f5f7' }}>
        <Header
          style={{
            background: '#fff',
            padding: '0 24px',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            borderBottom: '1px solid #f0f0f0',
          }}
        >
          <Dropdown menu={{ items: userMenu }} placement="bottomRight">
            <Button type="text" style={{ height: 48 }}>
              <Space>
                <Avatar size="small" icon={<UserOutlined />} style={{ background: '#e4393c' }} />
                <span>{admin?.displayName || admin?.username}</span>
                {admin?.roles.map((r) => (
                  <Tag key={r} style={{ marginInlineEnd: 0 }}>
                    {ROLE_LABEL[r]}
                  </Tag>
                ))}
              </Space>
            </Button>
          </Dropdown>
        </Header>
        <Content style={{ padding: 24 }}>
          <Outlet />
        </Content>
      </Layout>
    </Layout>
  );
}
