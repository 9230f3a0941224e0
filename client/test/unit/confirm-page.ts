import taro, { pages, router } from './stubs/taro';
import { saveDraft, type CheckoutDraft } from '../../src/services/draft';

/** 确认订单 of the draft, opened from the seat map over 演出详情, by a fan already logged in. */
export function confirmPageWith(draft: CheckoutDraft): void {
  taro.setStorageSync('showtix.token', 'tok');
  router.params = { sessionId: draft.sessionId };
  pages.push(
    { route: 'pages/show/index' },
    { route: 'pages/seatmap/index' },
    { route: 'pages/confirm/index' },
  );
  saveDraft(draft);
}
