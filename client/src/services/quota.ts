import type { PurchaseQuota } from '@showtix/shared-types';
import { useEffect, useState } from 'react';
import { useShownAgain } from '../hooks/useShownAgain';
import { currentToken } from './auth';
import { request } from './http';

/** What this fan may still buy in a session (their live orders counted against the limits). */
export function getQuota(sessionId: string): Promise<PurchaseQuota> {
  return request<PurchaseQuota>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/quota`, { auth: true });
}

/**
 * The fan's quota for a session, to say 已达限购 before the queue and on the seat map. Asked only
 * of a fan who is logged in (one who holds tickets has logged in; browsing never logs anyone
 * in), again when the page shows again; a failed read says nothing (the order is still checked).
 */
export function useQuota(sessionId: string | undefined): PurchaseQuota | undefined {
  const [quota, setQuota] = useState<PurchaseQuota>();
  const [kick, setKick] = useState(0);
  useShownAgain(() => setKick((k) => k + 1));
  useEffect(() => {
    if (!sessionId || !currentToken()) return undefined;
    let live = true;
    getQuota(sessionId).then(
      (q) => live && setQuota(q),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [sessionId, kick]);
  return quota?.sessionId === sessionId ? quota : undefined;
}

/** Why the fan cannot buy more here, in their words ("" while they can). */
export function limitReachedText(q: PurchaseQuota | undefined): string {
  if (!q || q.remaining > 0) return '';
  const bySession = q.purchaseLimit - q.held <= 0;
  if (!bySession && q.showPurchaseLimit !== null)
    return `您已购买本演出 ${q.showHeld} 张，已达每人限购 ${q.showPurchaseLimit} 张`;
  return `您已购买本场 ${q.held} 张，已达每人限购 ${q.purchaseLimit} 张`;
}

/** The most one more order may take: the session's limit, less what the fan already holds. */
export function orderLimit(purchaseLimit: number, q: PurchaseQuota | undefined): number {
  return q ? Math.min(purchaseLimit, q.remaining) : purchaseLimit;
}
