import type { CompClaimView } from '@showtix/shared-types';
import { request } from './http';

/** 领取赠票: binds the complimentary tickets of this claim code to the signed-in account. */
export function claimComp(code: string): Promise<CompClaimView> {
  return request<CompClaimView>('/api/v1/comps/claim', {
    method: 'POST',
    auth: true,
    body: { code: code.trim().toUpperCase() },
  });
}
