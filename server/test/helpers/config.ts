import { loadConfig } from '../../src/config';

/** One test per bad setting: the configuration refuses it, and the error names the variable. */
export function refusesToStartWith(cases: [name: string, value: string][]): void {
  it.each(cases)('refuses to start with %s=%s', (name, value) => {
    expect(() => loadConfig({ NODE_ENV: 'test', [name]: value })).toThrow(new RegExp(name));
  });
}
