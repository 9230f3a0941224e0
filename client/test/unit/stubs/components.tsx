/** Taro components as plain DOM elements, with the event shapes Taro hands to handlers. */
import type { ReactNode } from 'react';

type P = {
  children?: ReactNode;
  className?: string;
  style?: object;
  onClick?: (e: unknown) => void;
  [k: string]: unknown;
};

function pass({ children, className, style, onClick, ...rest }: P) {
  // data-*, id and the accessibility attributes pass as Taro's H5 build passes them.
  const data = Object.fromEntries(
    Object.entries(rest).filter(
      ([k]) => k.startsWith('data-') || k.startsWith('aria-') || k === 'id' || k === 'role',
    ),
  );
  return { children, className, style, onClick, ...data };
}

export const View = (p: P) => <div {...pass(p)} />;
export const Text = (p: P) => <span {...pass(p)} />;
export const ScrollView = (p: P) => <div {...pass(p)} />;
export const Image = (p: P) => <img alt="" src={p.src as string} {...pass(p)} />;
export const Canvas = (p: P) => <canvas {...pass(p)} />;
export const Button = (p: P) => <button disabled={Boolean(p.disabled)} {...pass(p)} />;
export const Input = (p: P) => (
  <input
    {...pass(p)}
    value={p.value as string}
    placeholder={p.placeholder as string}
    onChange={(e) => (p.onInput as (e: unknown) => void)?.({ detail: { value: e.target.value } })}
  />
);
export const Picker = (p: P) => <div {...pass(p)} />;
