import type { LoadedKeys } from './keys';
import type { Notifier } from './notifier';
import type { PayService } from './pay-service';
import type { RefundService } from './refund-service';
import type { Signer } from './signer';
import type { Store } from './store';
import type { LoginService } from './login-service';
import type { RawNotifier } from './raw-notify';
import type { SubscribeService } from './subscribe-service';

/** Everything the HTTP layer needs, built once per simulator. */
export interface Services {
  store: Store;
  keys: LoadedKeys;
  signer: Signer;
  notifier: Notifier;
  raw: RawNotifier;
  pay: PayService;
  refunds: RefundService;
  login: LoginService;
  subscribe: SubscribeService;
  log: (line: string) => void;
  /** How long a bill download_url stays valid (WeChat: 5 minutes). */
  billUrlTtlMs: number;
}
