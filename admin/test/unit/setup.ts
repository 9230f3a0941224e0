import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default: antd drawers and forms render slower than that
// in jsdom on a loaded two-core machine (a per-ticket refund test timed out so in CI).
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks these; antd's responsive grid and the seat map ask for them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= NoopResizeObserver;

// Every test starts with the real fetch and timers: a test's spies do not reach the next one.
beforeEach(() => vi.restoreAllMocks());
afterEach(() => {
  cleanup();
  localStorage.clear();
});
