import { Tag, Typography, type TableColumnType } from 'antd';
import type { NoticeKind, NoticeProblem } from '@showtix/shared-types';
import { OpsTable, timeColumn } from './OpsTable';

/** Every kind named (a new kind fails the type check here until it has its word). */
const KIND: Record<NoticeKind, string> = {
  paid: '支付成功',
  ticketed: '出票成功',
  refund: '退款',
  waiting_list_offer: '候补',
  session_changed: '场次变更',
  reminder: '开演提醒',
  sale_open: '开售提醒',
};
const STATUS: Record<string, { text: string; color?: string }> = {
  no_consent: { text: '未订阅' },
  refused: { text: '微信拒收', color: 'orange' },
  failed: { text: '发送失败', color: 'red' },
  sending: { text: '重试中', color: 'blue' },
};
/** What a fan or operator can do about the errcodes seen most. */
const ERRCODE: Record<number, string> = {
  43101: '用户未订阅或订阅已用完',
  40003: 'openid 无效',
  40037: '模板 ID 无效（检查配置）',
  47003: '模板参数不符（检查模板关键词）',
  [-1]: '微信系统繁忙',
};

const COLUMNS: TableColumnType<NoticeProblem>[] = [
  { title: '通知', dataIndex: 'kind', width: 110, render: (k: string) => KIND[k as NoticeKind] ?? k },
  {
    title: '结果',
    dataIndex: 'status',
    width: 100,
    render: (s: string) => <Tag color={STATUS[s]?.color}>{STATUS[s]?.text ?? s}</Tag>,
  },
  {
    title: '错误码',
    dataIndex: 'errcode',
    width: 260,
    render: (c: number | null, p) =>
      c === null ? (p.errmsg ?? '—') : `${c} ${ERRCODE[c] ?? p.errmsg ?? ''}`,
  },
  { title: '数量', dataIndex: 'count', width: 80 },
  timeColumn<NoticeProblem>('最近', 'lastAt'),
];

/** 订阅消息: notices that did not reach the fan, by kind and WeChat errcode (never silently dropped). */
export function NoticeProblems({ items, loading }: { items: NoticeProblem[] | undefined; loading: boolean }) {
  return (
    <OpsTable<NoticeProblem>
      title="未送达的订阅消息"
      rowKey={(p) => `${p.kind}-${p.status}-${p.errcode ?? ''}`}
      loading={loading}
      dataSource={items}
      columns={COLUMNS}
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        粉丝未授权时不发送；微信拒收（43101 等）与发送失败按通知类型和错误码汇总。
      </Typography.Paragraph>
    </OpsTable>
  );
}
