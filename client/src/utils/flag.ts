/**
 * Boolean props for Taro components. In H5 they are web components, and React 18 writes
 * `false` onto custom elements as the attribute "false", which CSS [disabled] still matches;
 * `undefined` removes the attribute instead. WeChat treats both the same.
 */
export function flag(on: boolean): true | undefined {
  return on ? true : undefined;
}

/**
 * A button's disabled state for WeChat (`disabled`) and for screen readers in the browser
 * (`aria-disabled`: Taro's H5 button is a custom element, so the native state is not exposed).
 */
export function disabledWhen(off: boolean): { disabled?: true; 'aria-disabled'?: 'true' } {
  return off ? { disabled: true, 'aria-disabled': 'true' } : {};
}
