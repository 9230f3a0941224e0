import { SEAT_POLL_DEFAULT_MS, type DegradeEntry, type DegradeState } from '@showtix/shared-types';

export const SWITCH_LABEL: Record<DegradeEntry['name'], string> = {
  seat_poll: '座位状态放慢刷新',
  force_queue: '场次强制排队',
  pause_nonessential: '暂停非必要功能',
};

export function describe(e: DegradeEntry): string {
  if (e.name === 'seat_poll') return `每 ${e.value / 1000} 秒刷新一次`;
  if (e.name === 'force_queue') return `场次 ${e.sessionId}`;
  return '海报上传、订单导出、检票报表、报表页';
}

export function seatPollNow(s: DegradeState | undefined): string {
  return s?.seatPollMs ? `已放慢为每 ${s.seatPollMs / 1000} 秒` : `默认每 ${SEAT_POLL_DEFAULT_MS / 1000} 秒`;
}
