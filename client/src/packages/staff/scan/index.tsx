import { Button, ScrollView, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import { RemedySheet } from '../../../components/ErrorPanel';
import { formatClock, formatDateTime } from '../../../utils/time';
import { flag } from '../../../utils/flag';
import { ManualCard, PasteCard } from './DeskCards';
import ScanResult from './ScanResult';
import Setup from './Setup';
import SyncCard from './SyncCard';
import { loadSetup, saveSetup, useDesk, type DeskSetup } from './useDesk';
import './index.scss';

const H5 = process.env.TARO_ENV === 'h5';
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

/** WeChat's camera scanner, reopened after each result that needs nothing from the staff member. */
function useCameraScan(desk: ReturnType<typeof useDesk>) {
  const rescan = useRef<ReturnType<typeof setTimeout>>();
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
      clearTimeout(rescan.current);
    },
    [],
  );
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
  const next = () => {
    clearTimeout(rescan.current);
    desk.clearResult();
    if (!H5) void scanWithCamera();
  };
  return { scanWithCamera, next };
}

function DeskHead({ setup, onChange }: { setup: DeskSetup; onChange: () => void }) {
  return (
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
  );
}

/** No network and no offline data yet: nothing can be checked, said plainly. */
function deskError(desk: ReturnType<typeof useDesk>) {
  return desk.error?.code === 'NETWORK' && !desk.bundle
    ? { ...desk.error, message: '网络不可用，且本机还没有离线数据，暂不能核验。请检查网络。' }
    : desk.error;
}

function Desk({ setup, onChange }: { setup: DeskSetup; onChange: () => void }) {
  const desk = useDesk(setup);
  const [hint, setHint] = useState<string>();
  const { scanWithCamera, next } = useCameraScan(desk);
  return (
    <View className="page desk" data-testid="desk">
      <DeskHead setup={setup} onChange={onChange} />
      <StatusBar desk={desk} />
      <ScrollView scrollY className="desk__scroll">
        <View className="desk__count">
          <Text className="desk__count-num" data-testid="gate-count">
            {desk.gateCount}
          </Text>
          <Text className="desk__count-label">本入口已入场（人）</Text>
        </View>
        {H5 ? (
          <PasteCard desk={desk} setHint={setHint} />
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
        <ManualCard desk={desk} setHint={setHint} />
        {hint ? (
          <Text className="desk__hint" data-testid="desk-hint">
            {hint}
          </Text>
        ) : null}
        {desk.report ? <SyncCard report={desk.report} /> : null}
      </ScrollView>
      {desk.result ? <ScanResult v={desk.result} onNext={next} /> : null}
      <RemedySheet
        error={deskError(desk)}
        dismiss={desk.clearError}
        handlers={{ retry: () => undefined, back_home: onChange }}
        reload={() => undefined}
      />
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
