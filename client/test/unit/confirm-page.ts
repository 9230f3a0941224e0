import { fireEvent, screen } from '@testing-library/react';
import taro, { pages, router } from './stubs/taro';
import { saveDraft, type CheckoutDraft } from '../../src/services/draft';

/**
 * 确认订单 of the draft, opened from the seat map over 演出详情, by a fan already logged in;
 * opts.phone is the 联系手机 remembered from the fan's last order (none: a first order).
 */
export function confirmPageWith(draft: CheckoutDraft, opts: { phone?: string } = {}): void {
  taro.setStorageSync('showtix.token', 'tok');
  if (opts.phone) taro.setStorageSync('showtix.contactPhone', opts.phone);
  router.params = { sessionId: draft.sessionId };
  pages.push(
    { route: 'pages/show/index' },
    { route: 'pages/seatmap/index' },
    { route: 'pages/confirm/index' },
  );
  saveDraft(draft);
}

/** Types into 确认订单's 联系手机 field. */
export function typePhone(value: string): void {
  fireEvent.change(screen.getByTestId('contact-phone'), { target: { value } });
}
