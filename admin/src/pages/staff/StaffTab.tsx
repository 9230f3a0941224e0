import { Alert, Button, Space, Table, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { StaffMember } from '@showtix/shared-types';
import { listStaff, removeStaff } from '../../api/staff';
import { useApi } from '../../api/useApi';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../utils/format';

/** The gate staff; adding one goes through an invite (the page opens the invite dialog). */
export function StaffTab({ onAdd }: { onAdd: () => void }) {
  const staff = useApi(() => listStaff(), []);
  const remove = async (userId: string) => {
    await removeStaff(userId);
    await staff.reload();
  };
  return (
    <>
      <Space orientation="vertical" style={{ marginBottom: 12, width: '100%' }}>
        <Alert
          type="info"
          showIcon
          title="检票人员通过邀请码加入：生成邀请码发给对方，对方在小程序「我的 › 检票员邀请」中输入即可。"
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid="add-staff">
          添加检票人员
        </Button>
      </Space>
      <Table<StaffMember>
        rowKey="userId"
        loading={staff.loading}
        dataSource={staff.data?.items}
        pagination={false}
        columns={[
          {
            title: '微信用户',
            render: (_, m) => (
              <>
                {m.nickname ?? '微信用户'} <Typography.Text type="secondary">ID {m.userId}</Typography.Text>
              </>
            ),
          },
          {
            title: '负责演出',
            dataIndex: 'shows',
            render: (s: StaffMember['shows']) => s.map((x) => <Tag key={x.id}>{x.title}</Tag>),
          },
          { title: '加入时间', dataIndex: 'since', render: dateTime },
          {
            title: '',
            width: 80,
            render: (_, m) => (
              <ConfirmButton question="移除该检票人员？" danger action={() => remove(m.userId)}>
                移除
              </ConfirmButton>
            ),
          },
        ]}
      />
    </>
  );
}
