import { fireEvent, render, screen } from '@testing-library/react';
import taro from './stubs/taro';
import { loggedInFan, tick } from './fan';
import { ok, refuse, serveApi } from './fake-api';
import ScanPage from '../../src/packages/staff/scan/index';
import ScanResult from '../../src/packages/staff/scan/ScanResult';
import type { ScanView } from '../../src/services/gate';

const support = require('../support/tickets');

const NOW = new Date('2027-01-15T11:00:00.000Z').getTime();
const T1 = 'TABCDEFGHJKLMNPQRSTU';
const keys = support.keyPair();
const t1 = support.ticket(keys, T1, '7');
const SETUP = {
  showId: '3',
  showTitle: '星河巡回演唱会',
  sessionId: '7',
  startsAt: '2027-01-15T11:30:00.000Z',
  gate: '东1门',
};

loggedInFan(NOW);

describe('the result screen', () => {
  const show = (v: ScanView) => {
    const next = jest.fn();
    const r = render(<ScanResult v={v} onNext={next} />);
    const el = screen.getByTestId('scan-result');
    return { el, next, r };
  };

  it('admitted: green, seat, the attendee to compare, the gate count', () => {
    const { el, next } = show({
      result: 'admitted',
      offline: false,
      ticketId: T1,
      seat: '内场A区 3排12座',
      attendee: { name: '张*', idNumber: '110***********002X' },
      gateCount: 41,
    });
    expect(el.className).toContain('result--ok');
    expect(screen.getByTestId('result-title').textContent).toBe('已入场');
    expect(screen.getByTestId('result-attendee').textContent).toBe(
      '实名核验：请核对观众证件张*110***********002X',
    );
    expect(screen.getByTestId('result-count').textContent).toBe('本入口已入场 41 人');
    expect(screen.queryByTestId('result-why')).toBeNull();
    fireEvent.click(screen.getByTestId('scan-next'));
    expect(screen.getByTestId('scan-next').textContent).toBe('核对无误，继续检票');
    expect(next).toHaveBeenCalled();
  });

  it('already used: red, when, at which gate, by whom', () => {
    const { el } = show({
      result: 'already_used',
      offline: false,
      ticketId: T1,
      usedAt: '2027-01-15T11:02:05.000Z',
      usedGate: '西2门',
      usedBy: '88',
    });
    expect(el.className).toContain('result--bad');
    expect(screen.getByTestId('result-title').textContent).toBe('重复入场');
    expect(screen.getByTestId('result-why').textContent).toBe('已入场：此票已检票入场，请勿重复放行');
    expect(screen.getByTestId('result-used').textContent).toBe(
      '首次入场：01月15日 19:02:05入口：西2门核验人：工作人员 #88',
    );
  });

  it('refunded: red, cannot enter', () => {
    show({ result: 'refunded', offline: true, ticketId: T1 });
    expect(screen.getByTestId('result-title').textContent).toBe('已退款');
    expect(screen.getByTestId('result-why').textContent).toBe('已退款：此票已退票或作废，不能入场');
    expect(screen.getByTestId('scan-result').textContent).toContain('离线核验');
  });

  it.each([
    ['signature', '无效票', '签名校验失败：伪造或被篡改的票'],
    [
      'code expired',
      '二维码已过期',
      '二维码已过期（可能是截图），请观众打开票夹出示实时二维码；一直如此请观众检查手机时间',
    ],
    ['other session', '非本场票', '非本场票：这张票不是本场次的，请观众核对场次'],
    [
      'device signature',
      '非本人手机',
      '二维码不是购票手机生成的（转发、代挂或伪造），请观众用自己的手机打开票夹',
    ],
    ['binding revoked', '已换手机', '此票已改在另一台手机上出示，这台手机上的二维码已失效'],
    ['second factor', '核验不符', '人工核验码或证件号不符，不能入场'],
    ['unknown ticket', '无效票', '查无此票'],
    ['unreadable', '无效票', '无法识别的二维码，不是本平台的电子票'],
  ])('invalid (%s): red with the reason in words', (reason, title, words) => {
    show({ result: 'invalid', offline: false, reason });
    expect(screen.getByTestId('result-title').textContent).toBe(title);
    expect(screen.getByTestId('result-why').textContent).toBe(words);
  });
});

describe('the scan desk (H5: codes pasted)', () => {
  beforeEach(() => taro.setStorageSync('showtix.gate.setup', JSON.stringify(SETUP)));

  it('checks a pasted code online, cues, counts; manual entry needs a well-formed number and a second factor', async () => {
    const sent = serveApi({
      'GET /api/v1/staff/sessions/7/offline-bundle': ok(support.bundle(keys, '7', [t1])),
      'POST /api/v1/checkin': [
        ok({ result: 'admitted', ticketId: T1, seat: 'A区 1排1座', gateCount: 7 }),
        ok({
          result: 'already_used',
          ticketId: T1,
          usedAt: '2027-01-15T11:00:00.000Z',
          gate: '东1门',
          usedBy: '5',
        }),
      ],
    });
    render(<ScanPage />);
    await tick(0);
    expect(screen.getByTestId('bundle-status').textContent).toBe('离线数据 1 张 · 19:00:00 更新');
    const qr = support.qrAt(t1, NOW);
    fireEvent.change(screen.getByTestId('scan-input'), { target: { value: ` ${qr} ` } });
    fireEvent.click(screen.getByTestId('scan-submit'));
    await tick(0);
    expect(sent.find((s) => s.key === 'POST /api/v1/checkin')!.data).toEqual({
      qr,
      gate: '东1门',
      sessionId: '7',
    });
    expect(screen.getByTestId('scan-result').dataset.result).toBe('admitted');
    expect(taro.vibrateShort).toHaveBeenCalled();
    expect(screen.getByTestId('gate-count').textContent).toBe('7');
    fireEvent.click(screen.getByTestId('scan-next'));

    fireEvent.change(screen.getByTestId('ticket-no-input'), { target: { value: 'T123' } });
    fireEvent.click(screen.getByTestId('ticket-no-submit'));
    expect(screen.getByTestId('desk-hint').textContent).toBe('票号格式不正确：T 开头，共 20 位');
    fireEvent.change(screen.getByTestId('ticket-no-input'), { target: { value: T1.toLowerCase() } });
    fireEvent.click(screen.getByTestId('ticket-no-submit'));
    expect(screen.getByTestId('desk-hint').textContent).toBe(
      '请填写观众报出的 6 位人工核验码，或实名场次的证件号后 4 位',
    );
    expect(sent.filter((s) => s.key === 'POST /api/v1/checkin')).toHaveLength(1); // a number alone is not sent
    fireEvent.change(screen.getByTestId('factor-input'), { target: { value: '123 456' } });
    fireEvent.click(screen.getByTestId('ticket-no-submit'));
    await tick(0);
    expect(sent.filter((s) => s.key === 'POST /api/v1/checkin')[1]!.data).toEqual({
      ticketNo: T1,
      spokenCode: '123456',
      gate: '东1门',
      sessionId: '7',
    });
    expect(screen.getByTestId('scan-result').dataset.result).toBe('already_used');
    expect(taro.vibrateLong).toHaveBeenCalled();
  });

  it('a staff member of another show is told so, with no result screen', async () => {
    serveApi({
      'GET /api/v1/staff/sessions/7/offline-bundle': ok(support.bundle(keys, '7', [t1])),
      'POST /api/v1/checkin': {
        statusCode: 403,
        data: { error: { code: 'FORBIDDEN', message: '您未被分配到本场演出检票' } },
      },
    });
    render(<ScanPage />);
    await tick(0);
    fireEvent.change(screen.getByTestId('scan-input'), { target: { value: support.qrAt(t1, NOW) } });
    fireEvent.click(screen.getByTestId('scan-submit'));
    await tick(0);
    expect(screen.queryByTestId('scan-result')).toBeNull();
    expect(screen.getByTestId('error-panel').textContent).toContain('您未被分配到本场演出检票');
  });

  it('offline: admits from the bundle, queues, retries the sync every 20 s until it goes through', async () => {
    const sent = serveApi({
      'GET /api/v1/staff/sessions/7/offline-bundle': ok(support.bundle(keys, '7', [t1])),
      'POST /api/v1/checkin': 'network',
      'POST /api/v1/checkin/sync': ['network', ok({ items: [{ ticketNo: T1, result: 'admitted' }] })],
    });
    render(<ScanPage />);
    await tick(0);
    fireEvent.change(screen.getByTestId('scan-input'), { target: { value: support.qrAt(t1, NOW) } });
    fireEvent.click(screen.getByTestId('scan-submit'));
    await tick(0);
    expect(screen.getByTestId('scan-result').dataset.offline).toBe('1');
    expect(screen.getByTestId('net-status').textContent).toBe('● 离线');
    expect(screen.getByTestId('pending-count').textContent).toBe('待同步 1 条 · 立即同步');
    expect(screen.getByTestId('gate-count').textContent).toBe('1');
    fireEvent.click(screen.getByTestId('scan-next'));

    await tick(20_000);
    expect(sent.filter((s) => s.key === 'POST /api/v1/checkin/sync')).toHaveLength(1);
    expect(screen.getByTestId('pending-count')).toBeTruthy();
    await tick(20_000);
    expect(sent.filter((s) => s.key === 'POST /api/v1/checkin/sync')).toHaveLength(2);
    expect(screen.queryByTestId('pending-count')).toBeNull();
    expect(screen.getByTestId('net-status').textContent).toBe('● 在线');
    expect(screen.getByTestId('sync-report').textContent).toContain('上传 1 条：确认入场 1 条，无冲突');
    await tick(60_000);
    expect(sent.filter((s) => s.key === 'POST /api/v1/checkin/sync')).toHaveLength(2);
  });

  it("a staff phone whose clock is off is told so, and its offline checks run on the server's time", async () => {
    const late = support.bundle(
      keys,
      '7',
      [t1],
      [],
      {},
      { generatedAt: new Date(NOW - 5 * 60_000).toISOString() },
    );
    serveApi({ 'GET /api/v1/staff/sessions/7/offline-bundle': ok(late), 'POST /api/v1/checkin': 'network' });
    render(<ScanPage />);
    await tick(0);
    expect(screen.getByTestId('clock-warning').textContent).toContain('相差 300 秒');
    // The fan's phone is right (server time = NOW - 5 min); this phone runs 5 minutes fast.
    fireEvent.change(screen.getByTestId('scan-input'), {
      target: { value: support.qrAt(t1, NOW - 5 * 60_000) },
    });
    fireEvent.click(screen.getByTestId('scan-submit'));
    await tick(0);
    expect(screen.getByTestId('scan-result').dataset.result).toBe('admitted');
  });

  it('refreshes the offline bundle every 5 minutes while online', async () => {
    const sent = serveApi({
      'GET /api/v1/staff/sessions/7/offline-bundle': ok(support.bundle(keys, '7', [t1])),
    });
    render(<ScanPage />);
    await tick(0);
    const bundles = () => sent.filter((s) => s.key === 'GET /api/v1/staff/sessions/7/offline-bundle').length;
    expect(bundles()).toBe(1);
    await tick(5 * 60_000 - 1);
    expect(bundles()).toBe(1);
    await tick(1);
    expect(bundles()).toBe(2);
  });

  it('without a network and without a bundle it says it cannot check', async () => {
    serveApi({ 'GET /api/v1/staff/sessions/7/offline-bundle': 'network', 'POST /api/v1/checkin': 'network' });
    render(<ScanPage />);
    await tick(0);
    expect(screen.getByTestId('bundle-status').textContent).toBe('离线数据下载中…');
    fireEvent.change(screen.getByTestId('scan-input'), { target: { value: support.qrAt(t1, NOW) } });
    fireEvent.click(screen.getByTestId('scan-submit'));
    await tick(0);
    expect(screen.getByTestId('error-panel').textContent).toContain('本机还没有离线数据');
  });
});

it('the gate setup asks which session and which gate', async () => {
  serveApi({
    'GET /api/v1/staff/me': ok({ shows: [{ id: '3', title: '星河巡回演唱会' }] }),
    'GET /api/v1/shows/3': ok({
      id: '3',
      title: '星河巡回演唱会',
      venue: { name: '梅奔' },
      sessions: [{ id: '7', startsAt: SETUP.startsAt, realName: false }],
    }),
    'GET /api/v1/staff/sessions/7/offline-bundle': refuse(503, 'SERVICE_UNAVAILABLE'),
  });
  render(<ScanPage />);
  await tick(0);
  fireEvent.click(screen.getByTestId('setup-start'));
  expect(screen.getByText('请选择检票场次')).toBeTruthy();
  fireEvent.click(screen.getByTestId('setup-session'));
  fireEvent.click(screen.getByTestId('setup-start'));
  expect(screen.getByText('请填写入口名称，如“东1门”')).toBeTruthy();
  fireEvent.change(screen.getByTestId('gate-input'), { target: { value: ' 北3门 ' } });
  fireEvent.click(screen.getByTestId('setup-start'));
  await tick(0);
  expect(screen.getByTestId('desk')).toBeTruthy();
  expect(JSON.parse(taro.getStorageSync('showtix.gate.setup') as string)).toMatchObject({
    sessionId: '7',
    gate: '北3门',
  });
  expect(screen.getByTestId('bundle-status').textContent).toBe('离线数据下载失败');
});
