import { eachLimited } from '../each-limited';
import type { WxRefund } from '../wechat/pay';
import { REFUND_STATUS, refundsToCheck } from './repo';
import type { RefundDeps } from './types';

/** Refunds of one state asked about per run of the refund check. */
const REFUND_CHECK_PAGE = 200;
/** WeChat queries in flight at once in the refund check (as the payment check's). */
const REFUND_CHECK_PARALLEL = 32;

/**
 * The refund check (the job every 10 s, server.ts): refunds WeChat accepted but never reported
 * on (PROCESSING), and those with an operator (ABNORMAL), asked for their state a page of each
 * per run; an answer is applied as a notification's would be (`apply`, RefundService.applyResult).
 */
export class RefundCheck {
  /** Per non-final state, the last refund id the check asked WeChat about. */
  private readonly checkedUpTo = new Map<number, string>();

  constructor(
    private readonly d: Pick<RefundDeps, 'db' | 'pay' | 'log'>,
    private readonly apply: (wx: WxRefund, now: Date) => Promise<string>,
  ) {}

  /**
   * Each state is walked round robin: once one page of ABNORMAL refunds (which stay so until an
   * operator acts) came first in every run, and a burst of them (a cancelled session's refunds
   * meeting a card problem) kept later PROCESSING refunds from ever being asked about. A page is
   * asked about side by side (REFUND_CHECK_PARALLEL): one at a time, a cancelled session's
   * thousands of refunds whose results were lost took minutes a page.
   */
  async run(now: Date, olderThanMs: number, pageSize = REFUND_CHECK_PAGE): Promise<number> {
    const before = new Date(now.getTime() - olderThanMs);
    let settled = 0;
    for (const status of [REFUND_STATUS.PROCESSING, REFUND_STATUS.ABNORMAL]) {
      const page = await refundsToCheck(
        this.d.db,
        status,
        before,
        this.checkedUpTo.get(status) ?? '0',
        pageSize,
      );
      // Round robin: the next check goes on after this page, and starts over after the last.
      this.checkedUpTo.set(status, page.length < pageSize ? '0' : page[page.length - 1]!.id);
      // Side by side; one query that fails (WeChat busy, the breaker open) is asked again on
      // the next lap and does not stop the others (it used to end the run, the page's rest unasked).
      await eachLimited(page, REFUND_CHECK_PARALLEL, async (r) => {
        try {
          const wx = await this.d.pay.queryRefund(r.outRefundNo);
          if (wx && (await this.apply(wx, now)) === 'applied') settled++;
        } catch (err) {
          this.d.log.warn({ err, outRefundNo: r.outRefundNo }, 'refund query failed; asked again next lap');
        }
      });
    }
    return settled;
  }
}
