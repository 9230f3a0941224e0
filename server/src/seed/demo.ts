import type { Logger } from 'pino';
import { insertSession, insertShow, insertVenue, seatIdsOfVenue } from '../catalog/admin-repo';
import { saveSettings as saveTransferSettings } from '../transfers/repo';
import { blockSeats } from '../catalog/layout';
import { openSale, type LifecycleDeps } from '../jobs/session-lifecycle';
import { setShowPurchaseLimit, showIdByTitle } from './repo';

/** 转赠 allowed until a day before the start, once per ticket (both demo shows). */
function allowTransfers(d: Pick<LifecycleDeps, 'db'>, showId: string, now: Date): Promise<void> {
  return saveTransferSettings(
    d.db,
    showId,
    { enabled: true, cutoffMinutes: 24 * 60, onceOnly: true },
    'seed',
    now,
  );
}

export const DEMO_TITLE = '星河巡回演唱会 2027 · 上海站';

const DAY_MS = 86_400_000;

/** The demo arena: about 1,300 seats in three sections (the client's browser tests seat their shows here too). */
export function demoArenaSeats() {
  return [
    ...blockSeats({ section: '内场A区', rows: 12, seatsPerRow: 24, originX: 0, originY: 60, gaps: [12] }),
    ...blockSeats({ section: '内场B区', rows: 12, seatsPerRow: 24, originX: 260, originY: 60, gaps: [13] }),
    ...blockSeats({ section: '看台C区', rows: 15, seatsPerRow: 50, originX: 0, originY: 230, curve: 30 }),
  ];
}

/** The demo concert's refunds: free until a week before, a 20% fee until two days before, then none. */
export const DEMO_REFUND_RULES = [
  { hoursBeforeStart: 168, feePercent: 0 },
  { hoursBeforeStart: 48, feePercent: 20 },
  { hoursBeforeStart: 0, feePercent: 100 },
];

/** A demo show with a reserved-seating session and a general-admission session, both on sale. */
export async function seedDemo(
  d: LifecycleDeps,
  now: Date,
  log: Logger,
): Promise<{ showId: string; created: boolean }> {
  const existing = await showIdByTitle(d.db, DEMO_TITLE);
  if (existing) return { showId: existing, created: false };

  const seats = demoArenaSeats();
  const venueId = await insertVenue(d.db, {
    name: '梅赛德斯-奔驰文化中心',
    city: '上海',
    address: '浦东新区世博大道1200号',
    // GCJ-02 (导航 on the show page); the other demo venue has none, so its card has no 导航.
    latitude: 31.190617,
    longitude: 121.495853,
    seats,
    zones: [
      { name: '内场站席', capacity: 2000 },
      { name: '看台自由席', capacity: 3000 },
    ],
  });
  const showId = await insertShow(d.db, {
    title: DEMO_TITLE,
    category: 'concert',
    venueId,
    description: '华语流行天团时隔三年的全新巡演，三小时不间断现场。实名制购票，一人一证一票。',
    posterUrl: null,
    refundRules: DEMO_REFUND_RULES,
  });
  await allowTransfers(d, showId, now);
  const all = await seatIdsOfVenue(d.db, venueId);
  const vip = all.filter((s) => s.section.startsWith('内场') && Number(s.row) <= 4).map((s) => s.id);
  const floor = all.filter((s) => s.section.startsWith('内场') && Number(s.row) > 4).map((s) => s.id);
  const evening = (days: number) =>
    new Date(Math.floor(now.getTime() / DAY_MS + days) * DAY_MS + 11.5 * 3600_000);
  const reserved = await insertSession(d.db, {
    showId,
    startsAt: evening(30),
    saleStartsAt: now,
    tiers: [
      { name: 'VIP 内场', priceFen: 188_000, color: '#e4393c', seatIds: vip },
      { name: '内场', priceFen: 128_000, color: '#ff8a00', seatIds: floor },
      { name: '看台', priceFen: 68_000, color: '#2f7cf6' },
    ],
  });
  const standing = await insertSession(d.db, {
    showId,
    startsAt: evening(31),
    saleStartsAt: now,
    tiers: [
      { name: '内场站席', priceFen: 98_000, color: '#ff8a00', zoneName: '内场站席' },
      { name: '看台自由席', priceFen: 48_000, color: '#2f7cf6', zoneName: '看台自由席' },
    ],
  });
  const hot = await seedHotShow(d, now);
  for (const id of [reserved, standing, hot]) await openSale(d, id, now);
  log.info({ showId, sessions: [reserved, standing, hot] }, 'demo shows seeded');
  return { showId, created: true };
}

/** A second, smaller show that shows off fair access: a waiting room and real-name tickets. */
async function seedHotShow(d: LifecycleDeps, now: Date): Promise<string> {
  const venueId = await insertVenue(d.db, {
    name: '北京工人体育馆',
    city: '北京',
    address: '朝阳区工人体育场北路',
    seats: [
      ...blockSeats({ section: '内场', rows: 8, seatsPerRow: 20, originX: 40, originY: 60, gaps: [10] }),
      ...blockSeats({ section: '看台', rows: 10, seatsPerRow: 30, originX: 0, originY: 180, curve: 20 }),
    ],
  });
  const showId = await insertShow(d.db, {
    title: '夏夜回声 · 限量专场',
    category: 'music',
    venueId,
    description: '仅此一场，开售即排队。实名制购票：每张票对应一位观演人，一证一票，入场时人、证、票一致。',
    posterUrl: null,
    refundRules: [
      { hoursBeforeStart: 72, feePercent: 10 },
      { hoursBeforeStart: 0, feePercent: 100 },
    ],
  });
  await setShowPurchaseLimit(d.db, showId, 2);
  await allowTransfers(d, showId, now);
  const floor = (await seatIdsOfVenue(d.db, venueId)).filter((s) => s.section === '内场').map((s) => s.id);
  return insertSession(d.db, {
    showId,
    startsAt: new Date(Math.floor(now.getTime() / DAY_MS + 45) * DAY_MS + 12 * 3600_000),
    saleStartsAt: now,
    purchaseLimit: 2,
    realName: true,
    queueEnabled: true,
    queueRatePerMin: 120,
    tiers: [
      { name: '内场', priceFen: 128_000, color: '#e4393c', seatIds: floor },
      { name: '看台', priceFen: 58_000, color: '#2f7cf6' },
    ],
  });
}
