import { useCallback } from 'react';
import { App } from 'antd';
import { errorText } from './client';

export interface AfterSave {
  /** The success message. */
  done: string;
  close: () => void;
  reload: () => Promise<void>;
}

/**
 * Submits a modal or drawer form: on success it says so, closes the form and reloads what changed.
 * A refusal shows the server's message and leaves the form open, so the entries can be corrected.
 */
export function useSaveForm() {
  const { message } = App.useApp();
  return useCallback(
    async (request: () => Promise<unknown>, { done, close, reload }: AfterSave) => {
      try {
        await request();
        message.success(done);
        close();
        await reload();
      } catch (e) {
        message.error(errorText(e, '保存失败'));
      }
    },
    [message],
  );
}
