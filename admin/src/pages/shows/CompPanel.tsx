import { useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import {
  PUBLIC_SHARE_MIN_PERCENT,
  seatLabel,
  type CompView,
  type ReservationsView,
  type VenueSeat,
} from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { comps, releaseSeats, reservations, reserveSeats, setZoneReserved, voidComp } from '../../api/comps';
import { useApi } from '../../api/useApi';
import { LoadState } from '../../components/LoadState';
import { CompIssueModal } from './CompIssueModal';

const STATE: Record<CompView['state'], { label: string; color: string }> = {
  issued: { label: '待领取', color: 'blue' },
  claimed: { label: '已领取', color: 'green' },
  voided: { label: '已作废', color: 'default' },
};

async function load(sessionId: string) {
  const [view, list] = await Promise.all([reservations(sessionId), comps(sessionId)]);
  return { view, list: list.items };
}

/**
 * 预留与赠票 of a session: units held back from public sale (at most 15%: the public share is
 * shown and the server refuses more), and complimentary tickets issued from them.
 */
export function CompPanel(props: {
  sessionId: string;
  realName: boolean;
  seats: VenueSeat[];
  closed: boolean;
}) {
  const { message } = App.useApp();
  const { data, error, reload } = useApi(() => load(props.sessionId), [props.sessionId]);
  const [issuing, setIssuing] = useState(false);
  if (error || !data) return <LoadState error={error} />;
  const { view, list } = data;
  /** Runs one change, says so, and reads the panel again; false when it was refused. */
  const run = async (what: () => Promise<unknown>, ok: string) => {
    try {
      await what();
      message.success(ok);
      await reload();
      return true;
    } catch (e) {
      message.error(errorText(e, '操作失败'));
      return false;
    }
  };
  const low = view.publicPercent < PUBLIC_SHARE_MIN_PERCENT;
  return (
    <Card size="small" title="预留与赠票" style={{ marginBottom: 16 }} data-testid="comp-panel">
      <Alert
        type={low ? 'error' : 'info'}
        showIcon
        style={{ marginBottom: 12 }}
        title={`公开销售占比 ${view.publicPercent}%（总票数 ${view.capacity}，预留 ${view.reserved}，其中已赠 ${view.issued}；最多可预留 ${view.reservableMax}，公开销售不得低于${PUBLIC_SHARE_MIN_PERCENT}%）`}
        data-testid="public-share"
      />
      <ReserveControls {...props} view={view} run={run} />
      <div style={{ margin: '8px 0' }}>
        <Button
          type="primary"
          disabled={props.closed || view.reserved <= view.issued}
          onClick={() => setIssuing(true)}
          data-testid="issue-comp"
        >
          赠票
        </Button>
      </div>
      <CompTable list={list} run={run} />
      <CompIssueModal
        open={issuing}
        sessionId={props.sessionId}
        realName={props.realName}
        view={view}
        onClose={() => setIssuing(false)}
        done={() => {
          setIssuing(false);
          void reload();
        }}
      />
    </Card>
  );
}

type Run = (what: () => Promise<unknown>, ok: string) => Promise<boolean>;

/** Seats picked on the venue's list reserved or released; each zone's reserved count. */
function ReserveControls(props: {
  sessionId: string;
  seats: VenueSeat[];
  closed: boolean;
  view: ReservationsView;
  run: Run;
}) {
  const { sessionId, view, run, closed } = props;
  const [picked, setPicked] = useState<string[]>([]);
  const [zoneDraft, setZoneDraft] = useState<Record<string, number>>({});
  const onSeats = (what: typeof reserveSeats, ok: string) =>
    run(() => what(sessionId, picked), ok).then((done) => done && setPicked([]));
  return (
    <>
      {props.seats.length > 0 && (
        <Space wrap style={{ marginBottom: 12 }}>
          <Select
            mode="multiple"
            style={{ minWidth: 320 }}
            placeholder="选择座位"
            value={picked}
            onChange={setPicked}
            optionFilterProp="label"
            options={props.seats.map((s) => ({ value: s.id, label: seatLabel(s) }))}
            disabled={closed}
          />
          <Button disabled={closed || !picked.length} onClick={() => onSeats(reserveSeats, '已预留')}>
            预留所选座位
          </Button>
          <Button
            disabled={closed || !picked.length}
            onClick={() => onSeats(releaseSeats, '已释放，恢复公开销售')}
          >
            释放所选座位
          </Button>
        </Space>
      )}
      {view.seats.length > 0 && (
        <div style={{ marginBottom: 12 }}>
          {view.seats.map((s) => (
            <Tag key={s.seatId} color={s.issued ? 'gold' : 'default'}>
              {s.label}
              {s.issued ? ' · 已赠' : ''}
            </Tag>
          ))}
        </div>
      )}
      {view.zones.map((z) => (
        <Space key={z.zoneId} style={{ marginBottom: 8, marginRight: 16 }}>
          <span>
            {z.name}（容量 {z.capacity}，已赠 {z.issued}）预留
          </span>
          <InputNumber
            min={z.issued}
            max={z.capacity}
            value={zoneDraft[z.zoneId] ?? z.reserved}
            onChange={(v) => setZoneDraft({ ...zoneDraft, [z.zoneId]: Number(v ?? 0) })}
            disabled={closed}
            aria-label={`${z.name}预留数`}
          />
          <Button
            disabled={closed}
            data-testid={`zone-save-${z.zoneId}`}
            onClick={() =>
              run(
                () => setZoneReserved(sessionId, z.zoneId, zoneDraft[z.zoneId] ?? z.reserved),
                '预留数已保存',
              )
            }
          >
            保存
          </Button>
        </Space>
      ))}
    </>
  );
}

/** The session's comps with their claim codes; 作废 asks for a reason (no money moves). */
function CompTable({ list, run }: { list: CompView[]; run: Run }) {
  const [voiding, setVoiding] = useState<CompView>();
  const [reason, setReason] = useState('');
  const confirmVoid = async () => {
    if (await run(() => voidComp(voiding!.orderId, reason.trim()), '赠票已作废，座位回到预留')) {
      setVoiding(undefined);
      setReason('');
    }
  };
  return (
    <>
      <Table
        size="small"
        rowKey="orderId"
        pagination={false}
        dataSource={list}
        columns={[
          { title: '订单号', dataIndex: 'orderNo' },
          { title: '姓名', dataIndex: 'nameMasked' },
          { title: '手机', dataIndex: 'phoneMasked' },
          { title: '门票', render: (_, c) => c.tickets.map((t) => t.label).join('、') },
          {
            title: '领取码',
            render: (_, c) =>
              c.state === 'voided' ? '—' : <Typography.Text copyable>{c.claimCode}</Typography.Text>,
          },
          { title: '状态', render: (_, c) => <Tag color={STATE[c.state].color}>{STATE[c.state].label}</Tag> },
          {
            title: '操作',
            render: (_, c) =>
              c.state !== 'voided' && (
                <Button size="small" danger onClick={() => setVoiding(c)}>
                  作废
                </Button>
              ),
          },
        ]}
      />
      <Modal
        open={!!voiding}
        title={`作废 ${voiding?.nameMasked ?? ''} 的赠票？`}
        okText="确认作废"
        okButtonProps={{ danger: true, disabled: !reason.trim() }}
        cancelText="返回"
        onCancel={() => setVoiding(undefined)}
        onOk={confirmVoid}
      >
        <p>赠票作废后立即不能入场（不涉及退款），座位或名额回到预留，可再赠出或释放给公开销售。</p>
        <Input
          placeholder="作废原因"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-label="作废原因"
        />
      </Modal>
    </>
  );
}
