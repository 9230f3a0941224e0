/**
 * Boolean props for Taro components. In H5 they are web components, and React 18 writes
 * `false` onto custom elements as the attribute "false", which CSS [disabled] still matches;
 * `undefined` removes the attribute instead. WeChat treats both the same.
 */
export function flag(on: boolean): true | undefined {
  return on ? true : undefined;
}
