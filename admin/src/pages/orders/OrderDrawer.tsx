import { Button, Drawer, Spin } from 'antd';
import { getOrder } from '../../api/orders';
import { useApi } from '../../api/useApi';
import { OrderParts } from './OrderParts';
import { OrderSummary } from './OrderSummary';
import { RefundModal } from './RefundModal';
import { TransferList } from './TransferList';
import { useOrderRefund } from './useOrderRefund';

export function OrderDrawer({
  orderNo,
  onClose,
  onChanged,
}: {
  orderNo: string | undefined;
  onClose: () => void;
  onChanged: () => void;
}) {
  const {
    data: o,
    loading,
    reload,
  } = useApi(() => (orderNo ? getOrder(orderNo) : Promise.resolve(undefined)), [orderNo]);
  const r = useOrderRefund(orderNo, o, reload, onChanged);
  return (
    <Drawer
      title={`订单 ${orderNo ?? ''}`}
      size={720}
      open={!!orderNo}
      onClose={onClose}
      destroyOnHidden
      extra={
        r.canRefund && (
          <Button danger onClick={r.open} data-testid="refund-btn">
            {r.perTicket ? '退票' : '全额退款'}
          </Button>
        )
      }
    >
      {loading && !o ? (
        <Spin />
      ) : (
        o && (
          <>
            <OrderSummary o={o} />
            <OrderParts o={o} />
            <TransferList orderNo={o.orderNo} />
          </>
        )
      )}
      <RefundModal r={r} o={o} />
    </Drawer>
  );
}
