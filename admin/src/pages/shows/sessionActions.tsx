import { App, Button, Popconfirm, Space } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { AdminSessionSummary } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { sessionAction } from '../../api/sessions';

/** Open the sale / end the session, with a confirmation; `done` reloads the caller's data. */
export function SessionActions({
  s,
  done,
  compact,
}: {
  s: AdminSessionSummary;
  done: () => void;
  compact?: boolean;
}) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const act = async (what: 'open' | 'end') => {
    try {
      await sessionAction(s.id, what);
      message.success(what === 'open' ? '已开售，库存已预热' : '场次已结束');
      done();
    } catch (e) {
      message.error(errorText(e, '操作失败'));
    }
  };
  const size = compact ? 'small' : 'middle';
  return (
    <Space wrap>
      {s.status === 'presale' && (
        <Popconfirm
          title="立即开售？"
          description="开售后观众即可下单，库存会预热到缓存。"
          okText="开售"
          onConfirm={() => act('open')}
        >
          <Button type="primary" size={size} data-testid={`open-sale-${s.id}`}>
            立即开售
          </Button>
        </Popconfirm>
      )}
      {s.status !== 'ended' && s.status !== 'cancelled' && (
        <Popconfirm
          title="结束该场次？"
          description="结束后不能再售票，也不能再修改。"
          okText="结束"
          okButtonProps={{ danger: true }}
          onConfirm={() => act('end')}
        >
          <Button danger size={size}>
            结束
          </Button>
        </Popconfirm>
      )}
      {s.status !== 'presale' && (
        <Button size={size} onClick={() => navigate(`/dashboard/${s.id}`)}>
          销售看板
        </Button>
      )}
    </Space>
  );
}
