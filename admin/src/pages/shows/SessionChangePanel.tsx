import { useEffect, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Modal,
  Progress,
  Space,
  Table,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { AdminSessionSummary, SessionChangeView } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { cancelSession, postponeSession, sessionChanges } from '../../api/sessions';
import { useApi } from '../../api/useApi';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';

/** How often a running cancellation's progress is read again. */
const REFRESH_MS = 3_000;

const PROBLEM: Record<string, string> = {
  retrying: '微信拒绝，自动重试中',
  abnormal: '退款异常，需人工处理',
  closed: '退款已关闭',
  failed: '无法退款',
};

/** What the organiser is about to do, said before the confirmation. */
function ChangeWarning({ kind, startsAt }: { kind?: 'cancel' | 'postpone'; startsAt: string }) {
  return kind === 'cancel' ? (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title="取消后立即停止售票、所有门票立即失效；已支付的订单将通过微信支付全额退款，未支付订单将被取消。此操作不可撤销。"
    />
  ) : (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={`原定 ${dateTime(startsAt)}。延期后将通知所有已购票观众，截止日期前观众可全额退票（不收手续费）。`}
    />
  );
}

/** The notice over a session's settings that can no longer change. */
export function ClosedNotice({ status }: { status: AdminSessionSummary['status'] }) {
  return (
    <Alert
      type="info"
      showIcon
      title={status === 'cancelled' ? '场次已取消，不能再修改' : '场次已结束，不能再修改'}
      style={{ marginBottom: 16 }}
    />
  );
}

/** The new date (later than the current one) and the end of the full-refund window. */
function PostponeFields({ startsAt }: { startsAt: string }) {
  return (
    <>
      <Form.Item
        name="startsAt"
        label="新的演出时间"
        rules={[
          { required: true, message: '请选择新的演出时间' },
          {
            validator: (_, v: Dayjs | undefined) =>
              v && !v.isAfter(dayjs(startsAt))
                ? Promise.reject(new Error('延期后的时间必须晚于原定时间'))
                : Promise.resolve(),
          },
        ]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        name="refundUntil"
        label="全额退票截止时间"
        rules={[{ required: true, message: '请选择全额退票截止时间' }]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
      </Form.Item>
    </>
  );
}

/** 取消场次 / 延期场次 buttons: each asks first, in a dialog that says what will happen. */
export function SessionChangeActions({ s, done }: { s: AdminSessionSummary; done: () => void }) {
  const { message } = App.useApp();
  const [open, setOpen] = useState<'cancel' | 'postpone'>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ reason: string; startsAt?: Dayjs; refundUntil?: Dayjs }>();
  if (s.status === 'ended' || s.status === 'cancelled') return null;
  const submit = async () => {
    // A refused field shows its message under the field; nothing is sent.
    const f = await form.validateFields().catch(() => undefined);
    if (!f) return;
    setBusy(true);
    try {
      if (open === 'cancel') await cancelSession(s.id, { reason: f.reason });
      else
        await postponeSession(s.id, {
          startsAt: f.startsAt!.toISOString(),
          refundUntil: f.refundUntil!.toISOString(),
          ...(f.reason ? { reason: f.reason } : {}),
        });
      message.success(open === 'cancel' ? '场次已取消，退款处理中' : '场次已延期，已通知观众');
      setOpen(undefined);
      form.resetFields();
      done();
    } catch (e) {
      message.error(errorText(e, '操作失败'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button danger onClick={() => setOpen('cancel')} data-testid="cancel-session">
        取消场次
      </Button>
      <Button onClick={() => setOpen('postpone')} data-testid="postpone-session">
        延期场次
      </Button>
      <Modal
        open={open !== undefined}
        title={open === 'cancel' ? '确认取消该场次？' : '延期该场次'}
        okText={open === 'cancel' ? '确认取消场次' : '确认延期'}
        cancelText="返回"
        okButtonProps={{ danger: open === 'cancel', loading: busy }}
        onOk={submit}
        onCancel={() => setOpen(undefined)}
        destroyOnHidden
      >
        <ChangeWarning kind={open} startsAt={s.startsAt} />
        <Form form={form} layout="vertical" preserve={false}>
          {open === 'postpone' && <PostponeFields startsAt={s.startsAt} />}
          <Form.Item
            name="reason"
            label={open === 'cancel' ? '取消原因（将告知观众）' : '延期原因'}
            rules={open === 'cancel' ? [{ required: true, whitespace: true, message: '请填写取消原因' }] : []}
          >
            <Input.TextArea maxLength={200} rows={3} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

function CancelProgress({ c }: { c: SessionChangeView }) {
  const o = c.orders;
  const percent = c.fenToRefund ? Math.floor((c.fenRefunded * 100) / c.fenToRefund) : 100;
  return (
    <>
      <Progress
        percent={percent}
        status={c.state === 'done' ? 'success' : 'active'}
        data-testid="refund-progress"
      />
      <Descriptions size="small" column={{ xs: 1, md: 4 }} bordered>
        <Descriptions.Item label="订单总数">{o.total}</Descriptions.Item>
        <Descriptions.Item label="已退款">{o.refunded}</Descriptions.Item>
        <Descriptions.Item label="退款中">{o.inProgress}</Descriptions.Item>
        <Descriptions.Item label="排队待退">{o.waiting}</Descriptions.Item>
        <Descriptions.Item label="失败/需人工">{o.failed}</Descriptions.Item>
        <Descriptions.Item label="待取消的未支付订单">{c.pendingLeft}</Descriptions.Item>
        <Descriptions.Item label="应退金额">{fenToYuan(c.fenToRefund)}</Descriptions.Item>
        <Descriptions.Item label="已退金额">
          <span data-testid="fen-refunded">{fenToYuan(c.fenRefunded)}</span>
        </Descriptions.Item>
      </Descriptions>
      {c.problems.length > 0 && (
        <Table
          size="small"
          style={{ marginTop: 12 }}
          rowKey="orderNo"
          pagination={false}
          dataSource={c.problems}
          columns={[
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '金额', dataIndex: 'amountFen', render: (f: number) => fenToYuan(f) },
            { title: '状态', dataIndex: 'state', render: (st: string) => PROBLEM[st] ?? st },
            { title: '原因', dataIndex: 'error', render: (e: string | null) => e ?? '—' },
          ]}
        />
      )}
    </>
  );
}

/** The session's cancellation or postponements, newest first; a running one refreshes itself. */
export function SessionChangeProgress({ sessionId }: { sessionId: string }) {
  const { data, reload } = useApi(() => sessionChanges(sessionId), [sessionId]);
  const running = data?.items.some((c) => c.state === 'running');
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void reload(), REFRESH_MS);
    return () => clearInterval(t);
  }, [running, reload]);
  if (!data?.items.length) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
      {data.items.map((c) => (
        <Card
          key={c.id}
          size="small"
          data-testid={`session-change-${c.kind}`}
          title={
            c.kind === 'cancel'
              ? `场次已取消 · ${c.state === 'done' ? '全额退款已完成' : '全额退款处理中'}`
              : `场次已延期：${dateTime(c.oldStartsAt)} → ${dateTime(c.newStartsAt)}`
          }
          extra={`${c.createdBy} · ${dateTime(c.createdAt)}`}
        >
          {c.reason && <p>原因：{c.reason}</p>}
          {c.kind === 'cancel' ? (
            <CancelProgress c={c} />
          ) : (
            <p>
              {dateTime(c.refundUntil)} 前观众可全额退票；已通知 {c.orders.total} 个订单
            </p>
          )}
        </Card>
      ))}
    </Space>
  );
}
