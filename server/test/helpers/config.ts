import { loadConfig } from '../../src/config';

/** One test per bad setting: the configuration refuses it, and the error names the variable. */
export function refusesToStartWith(cases: [name: string, value: string][]): void {
  it.each(cases)('refuses to start with %s=%s', (name, value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', [name]: value })).toThrow(new RegExp(name));
  });
}

/** The template ids the simulator knows, one per notice kind: what development and tests use. */
export const SIM_TEMPLATES = {
  paid: 'TPL_PAID',
  ticketed: 'TPL_TICKETED',
  refund: 'TPL_REFUND',
  waiting_list_offer: 'TPL_WAITING_LIST_OFFER',
  session_changed: 'TPL_SESSION_CHANGED',
  reminder: 'TPL_REMINDER',
  sale_open: 'TPL_SALE_OPEN',
};
