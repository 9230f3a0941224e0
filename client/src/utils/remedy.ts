import type { ErrorView, Remedy } from '../services/errors';
import { relogin } from '../services/auth';
import { goBack, switchTab } from '../routes';

export type Handlers = Partial<Record<Remedy, () => void>>;

/**
 * Runs the way forward an error offers. Pages pass handlers for what only they can do (reselect
 * seats, order again); the rest has one meaning everywhere.
 */
export function runRemedy(err: ErrorView, handlers: Handlers, reload: () => void): void {
  const own = handlers[err.remedy];
  if (own) return own();
  switch (err.remedy) {
    case 'back_home':
      return switchTab('home');
    case 'login_again':
      void relogin().then(reload, reload);
      return;
    case 'back_to_show':
    case 'pick_other_seats':
    case 'adjust_selection':
    case 'order_again':
    case 'fix_input':
      return goBack();
    default:
      return reload();
  }
}
