import { useState } from 'react';
import { App, Button, Card, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import {
  REFUND_CASE_RESOLUTIONS,
  type ForeignCurrencyPayment,
  type OpsOverview,
  type ParkedMessage,
  type RefundCase,
  type StuckRefund,
} from '@showtix/shared-types';
import { api, errorText } from '../../api/client';
import { useApi } from '../../api/useApi';
import { ConfirmButton } from '../../components/ConfirmButton';
import { dateTime } from '../../utils/format';
import { fenToYuan } from '../../utils/money';
import { NoticeProblems } from './NoticeProblems';

const OPS = '/api/v1/admin/ops';
const QUEUE: Record<string, string> = {
  tickets: '出票',
  'late-payments': '超时支付',
  refunds: '退款',
  inventory: '库存释放',
  notices: '通知',
};
const REFUND: Record<string, string> = {
  requested: '待提交',
  processing: '退款中',
  abnormal: '退款异常',
  closed: '退款关闭',
};
const CASE_REASON: Record<string, string> = {
  abnormal: '退款异常（银行卡）',
  stuck: '多次提交失败',
  closed: '退款被关闭（需重新处理）',
};
const RESOLUTION: Record<string, string> = { paid_offline: '已线下退款', not_owed: '无需退款' };

/** Resolves a refund case: the operator's explicit decision, with a note (audited). */
function ResolveCase({ c, done }: { c: RefundCase | undefined; done: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const submit = async (v: { resolution: string; note: string }) => {
    try {
      await api('POST', `${OPS}/refund-cases/${c!.refundId}/resolve`, v);
      message.success('已记录处理结果');
      done();
    } catch (e) {
      message.error(errorText(e, '操作失败'));
    }
  };
  return (
    <Modal
      title="处理退款异常"
      open={!!c}
      onCancel={done}
      onOk={() => form.submit()}
      okText="确认"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        订单 {c?.orderNo}，退款 {c ? fenToYuan(c.amountFen) : ''}{' '}
        元。请先与购票人联系并完成退款，再记录处理结果。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ resolution: 'paid_offline' }}>
        <Form.Item name="resolution" label="处理结果">
          <Select options={REFUND_CASE_RESOLUTIONS.map((r) => ({ value: r, label: RESOLUTION[r] }))} />
        </Form.Item>
        <Form.Item name="note" label="说明" rules={[{ required: true, message: '请填写说明' }]}>
          <Input maxLength={200} placeholder="如 已通过对公账户转账，流水号 ..." />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 运维处理: what automatic recovery could not settle, each with its repair. */
export function OpsPage() {
  const { message } = App.useApp();
  const { data: d, loading, reload } = useApi(() => api<OpsOverview>('GET', OPS), []);
  const [resolving, setResolving] = useState<RefundCase>();
  const act = async (path: string, done: string) => {
    await api('POST', `${OPS}${path}`);
    message.success(done);
    await reload();
  };
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Space>
        <Typography.Title level={4} style={{ margin: 0 }}>
          运维处理
        </Typography.Title>
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </Space>
      <Card title="死信队列" size="small">
        <Space wrap style={{ marginBottom: 12 }}>
          {d?.deadLetters.queues === null ? (
            <Tag color="red">消息队列不可用</Tag>
          ) : (
            Object.entries(d?.deadLetters.queues ?? {}).map(([q, n]) => (
              <Tag key={q} color={n > 0 ? 'orange' : undefined}>
                {QUEUE[q] ?? q}：{n}
              </Tag>
            ))
          )}
          <Typography.Text type="secondary">死信会自动重试 3 次，仍失败的消息列在下方。</Typography.Text>
        </Space>
        <Table<ParkedMessage>
          rowKey="id"
          size="small"
          loading={loading}
          dataSource={d?.deadLetters.parked}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '队列', dataIndex: 'queue', width: 100, render: (q: string) => QUEUE[q] ?? q },
            { title: '消息', dataIndex: 'payload', ellipsis: true },
            { title: '错误', dataIndex: 'error', ellipsis: true },
            { title: '时间', dataIndex: 'parkedAt', width: 160, render: dateTime },
            {
              title: '',
              width: 150,
              render: (_, m) => (
                <Space>
                  <ConfirmButton
                    question="重新投递这条消息？"
                    action={() => act(`/dead-letters/${m.id}/requeue`, '已重新投递')}
                  >
                    重新投递
                  </ConfirmButton>
                  <ConfirmButton
                    danger
                    question="丢弃这条消息？"
                    action={() => act(`/dead-letters/${m.id}/discard`, '已丢弃')}
                  >
                    丢弃
                  </ConfirmButton>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card title="已支付未出票" size="small">
        <Table
          rowKey="orderNo"
          size="small"
          loading={loading}
          dataSource={d?.stuckPayments}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '金额', dataIndex: 'amountFen', width: 120, render: fenToYuan },
            { title: '支付时间', dataIndex: 'paidAt', width: 160, render: dateTime },
            {
              title: '',
              width: 100,
              render: (_, o) => (
                <ConfirmButton
                  question="立即出票？"
                  action={() => act(`/orders/${o.orderNo}/issue-tickets`, '已出票')}
                >
                  出票
                </ConfirmButton>
              ),
            },
          ]}
        />
      </Card>
      <Card title="未完成的退款" size="small">
        <Table<StuckRefund>
          rowKey="refundId"
          size="small"
          loading={loading}
          dataSource={d?.stuckRefunds}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '金额', dataIndex: 'amountFen', width: 110, render: fenToYuan },
            {
              title: '状态',
              dataIndex: 'status',
              width: 100,
              render: (s: string) => <Tag>{REFUND[s] ?? s}</Tag>,
            },
            { title: '失败次数', dataIndex: 'attempts', width: 90 },
            { title: '最近错误', dataIndex: 'lastError', ellipsis: true },
            { title: '申请时间', dataIndex: 'createdAt', width: 160, render: dateTime },
            {
              title: '',
              width: 100,
              render: (_, r) => (
                <ConfirmButton
                  question="立即重试（向微信支付重新提交或查询）？"
                  action={() => act(`/refunds/${r.refundId}/retry`, '已重试')}
                >
                  重试
                </ConfirmButton>
              ),
            },
          ]}
        />
      </Card>
      <Card title="待人工处理的退款" size="small">
        <Table<RefundCase>
          rowKey="refundId"
          size="small"
          loading={loading}
          dataSource={d?.refundCases}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '金额', dataIndex: 'amountFen', width: 110, render: fenToYuan },
            { title: '原因', dataIndex: 'reason', width: 150, render: (r: string) => CASE_REASON[r] ?? r },
            { title: '时间', dataIndex: 'openedAt', width: 160, render: dateTime },
            {
              title: '',
              width: 100,
              render: (_, c) => (
                <Button size="small" type="primary" onClick={() => setResolving(c)}>
                  处理
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <Card title="外币支付（自动全额退款）" size="small">
        <Table<ForeignCurrencyPayment>
          rowKey="paymentId"
          size="small"
          loading={loading}
          dataSource={d?.foreignCurrency}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '微信支付单号', dataIndex: 'transactionId', ellipsis: true },
            {
              title: '金额',
              width: 130,
              render: (_, f) => `${(f.amountFen / 100).toFixed(2)} ${f.currency}`,
            },
            {
              title: '退款',
              dataIndex: 'refundStatus',
              width: 100,
              render: (s: string | null) => (
                <Tag color={s ? undefined : 'red'}>{s ? (REFUND[s] ?? s) : '未发起'}</Tag>
              ),
            },
            { title: '收款时间', dataIndex: 'receivedAt', width: 160, render: dateTime },
            {
              title: '',
              width: 100,
              render: (_, f) => (
                <ConfirmButton
                  question="立即向微信支付提交（或查询）这笔全额退款？"
                  action={() => act(`/payments/${f.paymentId}/refund`, '已提交退款')}
                >
                  退款
                </ConfirmButton>
              ),
            },
          ]}
        />
      </Card>
      <NoticeProblems items={d?.noticeProblems} loading={loading} />
      <ResolveCase
        c={resolving}
        done={() => {
          setResolving(undefined);
          void reload();
        }}
      />
    </Space>
  );
}
