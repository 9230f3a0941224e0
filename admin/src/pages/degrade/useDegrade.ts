import { useState } from 'react';
import { App } from 'antd';
import type { DegradeSetInput } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { getDegrade, setDegrade } from '../../api/degrade';
import { useApi } from '../../api/useApi';

/** The degrade switches, the shared reason field, and `flip` (apply one change, then reload). */
export function useDegrade() {
  const { message } = App.useApp();
  const state = useApi(getDegrade, []);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const flip = async (input: DegradeSetInput, done: string) => {
    setBusy(true);
    try {
      await setDegrade({ ...input, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      message.success(done);
      await state.reload();
    } catch (e) {
      message.error(errorText(e, '操作失败'));
    } finally {
      setBusy(false);
    }
  };
  return { state, reason, setReason, busy, flip };
}

export type Degrade = ReturnType<typeof useDegrade>;
