import { RefundService } from '../../src/refunds/service';

/**
 * Pauses every refund right after its "already checked in?" check (the fee is computed next),
 * so that a test can commit a check-in in between: `reached` once a refund is paused there,
 * `release()` lets it go on. Undone by jest.restoreAllMocks.
 */
export function pauseRefundAfterCheck(): { reached: Promise<void>; release: () => void } {
  let paused!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((r) => (paused = r));
  const gate = new Promise<void>((r) => (release = r));
  const proto = RefundService.prototype as unknown as { buyerFee: (...a: unknown[]) => Promise<number> };
  const real = proto.buyerFee;
  jest.spyOn(proto, 'buyerFee').mockImplementation(async function (this: unknown, ...args: unknown[]) {
    paused();
    await gate;
    return real.apply(this, args);
  });
  return { reached, release };
}
