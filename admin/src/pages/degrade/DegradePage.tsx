import { Alert, Input, Space, Typography } from 'antd';
import { errorText } from '../../api/client';
import { ActiveDegradeCard, ForceQueueCard, NonEssentialCard, SeatPollCard } from './DegradeCards';
import { useDegrade } from './useDegrade';

/**
 * 熔断降级: the switches an operator turns during an overload. Every flip is applied by every
 * server instance within moments and written to the 操作日志.
 */
export function DegradePage() {
  const d = useDegrade();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        熔断降级
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        title="开票高峰时可临时关闭或放慢部分功能，保证购票主流程。每次切换立即在所有服务器生效，并记入操作日志。"
      />
      {d.state.error && <Alert type="error" title={errorText(d.state.error, '加载失败')} />}
      <Input
        aria-label="原因"
        placeholder="切换原因（记入操作日志），如 开票高峰"
        maxLength={200}
        value={d.reason}
        onChange={(e) => d.setReason(e.target.value)}
      />
      <SeatPollCard d={d} />
      <NonEssentialCard d={d} />
      <ForceQueueCard d={d} />
      <ActiveDegradeCard d={d} />
    </Space>
  );
}
