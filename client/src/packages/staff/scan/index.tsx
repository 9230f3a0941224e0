import { Button, ScrollView, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import ErrorPanel from '../../../components/ErrorPanel';
import { TextField } from '../../../components/Field';
import { formatClock, formatDateTime } from '../../../utils/time';
import { runRemedy } from '../../../utils/remedy';
import { flag } from '../../../utils/flag';
import ScanResult from './ScanResult';
import Setup from './Setup';
import SyncCard from './SyncCard';
import { loadSetup, saveSetup, useDesk, type DeskSetup } from './useDesk';
import './index.scss';

const H5 = process.env.TARO_ENV === 'h5';
const TICKET_NO = /^T[2-9A-Z]{19}$/;
const ID_LAST4 = /^\d{3}[\dX]$/;
const SPOKEN = /^\d{6}$/;
/** A staff phone's clock further off than this is pointed out (offline checks correct for it). */
const CLOCK_WARN_MS = 30_000;
/** After a green result that needs no ID check, the camera opens again by itself. */
const RESCAN_MS = 1200;

function StatusBar({ desk }: { desk: ReturnType<typeof useDesk> }) {
  const b = desk.bundle;
  return (
    <View className="desk__status">
      <Text className={`chip-net chip-net--${desk.online ? 'on' : 'off'}`} data-testid="net-status">
        {desk.online ? '● 在线' : '● 离线'}
      </Text>
      <Text className="desk__meta" data-testid="bundle-status">
        {b
          ? `离线数据 ${Object.keys(b.tickets).length} 张 · ${formatClock(b.generatedAt)} 更新${desk.bundleStored ? '' : '（未存入本机）'}`
          : desk.bundleError
            ? '离线数据下载失败'
            : '离线数据下载中…'}
      </Text>
      {Math.abs(desk.clockSkewMs) > CLOCK_WARN_MS ? (
        <Text className="desk__hint" data-testid="clock-warning">
          本机时间与服务器相差 {Math.round(Math.abs(desk.clockSkewMs) / 1000)}{' '}
          秒，离线核验已按服务器时间校正；请校准手机时间
        </Text>
      ) : null}
      {desk.pending ? (
        <Text className="desk__pending" data-testid="pending-count" onClick={() => void desk.sync()}>
          待同步 {desk.pending} 条 · 立即同步
        </Text>
      ) : null}
    </View>
  );
}

function Desk({ setup, onChange }: { setup: DeskSetup; onChange: () => void }) {
  const desk = useDesk(setup);
  const [qr, setQr] = useState('');
  const [ticketNo, setTicketNo] = useState('');
  const [factor, setFactor] = useState('');
  const [hint, setHint] = useState<string>();
  const rescan = useRef<ReturnType<typeof setTimeout>>();
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
      clearTimeout(rescan.current);
    },
    [],
  );

  // WeChat's camera scanner, reopened after each result that needs nothing from the staff member.
  const scanWithCamera = async () => {
    clearTimeout(rescan.current);
    desk.clearResult();
    let code: string;
    try {
      code = (await Taro.scanCode({ onlyFromCamera: true, scanType: ['qrCode'] })).result;
    } catch {
      return; // closed by the staff member: stay on the desk
    }
    const v = await desk.scan({ qr: code });
    if (alive.current && v?.result === 'admitted' && !v.attendee)
      rescan.current = setTimeout(() => void scanWithCamera(), RESCAN_MS);
  };
  const checkPasted = () => {
    const text = qr.trim();
    if (!text) return setHint('请粘贴或输入二维码内容');
    setHint(undefined);
    setQr('');
    void desk.scan({ qr: text });
  };
  // Manual entry: the number alone admits no one; the holder's spoken code (6 digits under the
  // QR in their wallet) or, on real-name sessions, the ID's last four characters come with it.
  const checkNumber = () => {
    const no = ticketNo.trim().toUpperCase();
    const f = factor.replace(/\s/g, '').toUpperCase();
    if (!TICKET_NO.test(no)) return setHint('票号格式不正确：T 开头，共 20 位');
    if (!SPOKEN.test(f) && !ID_LAST4.test(f))
      return setHint('请填写观众报出的 6 位人工核验码，或实名场次的证件号后 4 位');
    setHint(undefined);
    setTicketNo('');
    setFactor('');
    void desk.scan(SPOKEN.test(f) ? { ticketNo: no, spokenCode: f } : { ticketNo: no, idLast4: f });
  };
  const next = () => {
    clearTimeout(rescan.current);
    desk.clearResult();
    if (!H5) void scanWithCamera();
  };

  return (
    <View className="page desk" data-testid="desk">
      <View className="desk__head">
        <View className="desk__title-row">
          <Text className="desk__title">{setup.showTitle}</Text>
          <Text className="link" data-testid="desk-change" onClick={onChange}>
            更换
          </Text>
        </View>
        <Text className="desk__sub">
          {formatDateTime(setup.startsAt)} · 入口 {setup.gate}
        </Text>
      </View>
      <StatusBar desk={desk} />
      <ScrollView scrollY className="desk__scroll">
        <View className="desk__count">
          <Text className="desk__count-num" data-testid="gate-count">
            {desk.gateCount}
          </Text>
          <Text className="desk__count-label">本入口已入场（人）</Text>
        </View>
        {H5 ? (
          <View className="card">
            <Text className="card__title">扫码内容</Text>
            <Text className="card__sub">
              浏览器中无法调用摄像头扫码：请粘贴扫码枪或其他设备读到的二维码内容
            </Text>
            <TextField
              className="desk__qr-input"
              testid="scan-input"
              placeholder="STX3:…"
              value={qr}
              maxlength={1024}
              onInput={setQr}
              onConfirm={checkPasted}
            />
            <Button
              className="btn btn--primary desk__go desk__check-qr"
              data-testid="scan-submit"
              disabled={flag(desk.busy)}
              onClick={checkPasted}
            >
              核验二维码
            </Button>
          </View>
        ) : (
          <Button
            className="btn btn--primary desk__scan"
            data-testid="scan-button"
            disabled={flag(desk.busy)}
            onClick={() => void scanWithCamera()}
          >
            扫码检票
          </Button>
        )}
        <View className="card">
          <Text className="card__title">人工核验</Text>
          <Text className="card__sub">
            二维码无法识别时：输入票号，并请观众报出票夹中的 6 位人工核验码（实名场次也可核对证件后填证件号后
            4 位）。需联网，每次核验都会记录。
          </Text>
          <TextField
            className="desk__no-input"
            testid="ticket-no-input"
            placeholder="T 开头的 20 位票号"
            value={ticketNo}
            maxlength={20}
            onInput={setTicketNo}
          />
          <TextField
            className="desk__no-input"
            testid="factor-input"
            placeholder="人工核验码 6 位 / 证件号后 4 位"
            value={factor}
            maxlength={7}
            onInput={setFactor}
          />
          <Button
            className="btn btn--ghost desk__go desk__check-no"
            data-testid="ticket-no-submit"
            disabled={flag(desk.busy)}
            onClick={checkNumber}
          >
            核验票号
          </Button>
        </View>
        {hint ? (
          <Text className="desk__hint" data-testid="desk-hint">
            {hint}
          </Text>
        ) : null}
        {desk.report ? <SyncCard report={desk.report} /> : null}
      </ScrollView>
      {desk.result ? <ScanResult v={desk.result} onNext={next} /> : null}
      {desk.error ? (
        <ErrorPanel
          error={
            desk.error.code === 'NETWORK' && !desk.bundle
              ? { ...desk.error, message: '网络不可用，且本机还没有离线数据，暂不能核验。请检查网络。' }
              : desk.error
          }
          onClose={desk.clearError}
          onAction={() => {
            const err = desk.error!;
            desk.clearError();
            runRemedy(err, { retry: () => undefined, back_home: onChange }, () => undefined);
          }}
        />
      ) : null}
    </View>
  );
}

/** The gate staff's ticket scanner (staff sub-package): set up a session and gate, then scan. */
export default function ScanPage() {
  const [setup, setSetup] = useState<DeskSetup | undefined>(loadSetup);
  const [editing, setEditing] = useState(!setup);
  if (editing || !setup) {
    return (
      <View className="page desk">
        <ScrollView scrollY className="desk__scroll">
          <Setup
            initial={setup}
            onStart={(s) => {
              saveSetup(s);
              setSetup(s);
              setEditing(false);
            }}
          />
        </ScrollView>
      </View>
    );
  }
  return <Desk key={`${setup.sessionId}:${setup.gate}`} setup={setup} onChange={() => setEditing(true)} />;
}
