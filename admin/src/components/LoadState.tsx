import { Result, Spin } from 'antd';
import type { ApiError } from '../api/client';

/** What a page shows until its data is there: why loading failed, else a spinner. */
export function LoadState({ error }: { error: ApiError | undefined }) {
  return error ? <Result status="warning" title={error.message} /> : <Spin />;
}
