import type { ReactNode } from 'react';
import { App, Button, Popconfirm } from 'antd';
import { errorText } from '../api/client';

/**
 * A small table-row button that asks first, then runs `action`. A refusal shows the server's
 * message: antd's Popconfirm would only re-throw it, and the click would seem to do nothing.
 */
export function ConfirmButton({
  question,
  danger,
  action,
  children,
}: {
  question: string;
  danger?: boolean;
  action: () => Promise<unknown>;
  children: ReactNode;
}) {
  const { message } = App.useApp();
  const run = () =>
    action().catch((e: unknown) => {
      message.error(errorText(e, '操作失败'));
    });
  return (
    <Popconfirm title={question} onConfirm={run}>
      <Button size="small" danger={danger}>
        {children}
      </Button>
    </Popconfirm>
  );
}
