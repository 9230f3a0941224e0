import { useCallback } from 'react';
import { App } from 'antd';
import { errorText } from './client';

export interface AfterSave {
  /** The success message. */
  done: string;
  close: () => void;
  /** Reloads what changed (left out where `close` does it). */
  reload?: () => Promise<void>;
  /** The fallback error message when the server gives none. */
  failed?: string;
}

/**
 * Submits a modal or drawer form: on success it says so, closes the form and reloads what changed.
 * A refusal shows the server's message and leaves the form open, so the entries can be corrected.
 */
export function useSaveForm() {
  const { message } = App.useApp();
  return useCallback(
    async (request: () => Promise<unknown>, { done, close, reload, failed = '保存失败' }: AfterSave) => {
      try {
        await request();
        message.success(done);
        close();
        await reload?.();
      } catch (e) {
        message.error(errorText(e, failed));
      }
    },
    [message],
  );
}
