import { useDidShow } from '@tarojs/taro';
import { useRef } from 'react';

/**
 * Runs `fn` each time the page shows again (back from a page above it, or the app back in
 * front), not at its first show: the first load is the page's own.
 */
export function useShownAgain(fn: () => void): void {
  const shownOnce = useRef(false);
  useDidShow(() => {
    if (shownOnce.current) fn();
    shownOnce.current = true;
  });
}
