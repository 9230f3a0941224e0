// The seat map page under jsdom: its layout, its canvas and a fan's taps on its seats. Not in
// fixtures.ts, which stays plain data for the miniprogram-simulate tests (test/weapp).
import { act, fireEvent } from '@testing-library/react';
import type { SeatMap } from '@showtix/shared-types';
import type * as catalog from '../../src/services/catalog';
import { SESSION } from './fixtures';
import { resetTaro, router } from './stubs/taro';

/** What the seat map page exposes on window for tests (pages/seatmap). */
export interface SeatMapTestApi {
  seatPoint(i: number): { x: number; y: number };
  view(): { scale: number; fitScale: number } | null;
}

/** The page's test handle, once it has drawn (undefined before). */
export const seatmap = () => (window as unknown as { __seatmap: SeatMapTestApi }).__seatmap;

/**
 * jsdom has no layout or canvas: boxes get a phone-sized rect and canvases a do-nothing 2D
 * context. Call it in a beforeAll of a test that renders the seat map page.
 */
export function phoneLayout(): void {
  const noop = () => undefined;
  const ctx = new Proxy({}, { get: (_t, k) => (k === 'canvas' ? undefined : noop), set: () => true });
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as never);
  jest.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(
    () =>
      ({
        left: 0,
        top: 0,
        right: 375,
        bottom: 500,
        width: 375,
        height: 500,
        x: 0,
        y: 0,
        toJSON: noop,
      }) as DOMRect,
  );
}

/** Taps the seat with that index where the map draws it. */
export function tap(index: number): void {
  const p = seatmap().seatPoint(index);
  const canvas = document.querySelector('canvas')!;
  act(() => {
    fireEvent.pointerDown(canvas, { pointerId: 1, clientX: p.x, clientY: p.y });
    fireEvent.pointerUp(canvas, { pointerId: 1, clientX: p.x, clientY: p.y });
  });
}

/**
 * Fresh Taro stand-ins, the page opened on session 7 of show 3, and the (jest-mocked) catalog
 * answering it: this seat map with `sold` sold, and the show with `show`'s fields added.
 */
export function serveSeatMap(
  api: jest.Mocked<typeof catalog>,
  map: SeatMap,
  o: { sold?: string[]; show?: object } = {},
): void {
  resetTaro();
  router.params = { sessionId: '7', showId: '3' };
  api.getSeatMap.mockResolvedValue(map);
  api.getSession.mockResolvedValue(SESSION);
  const venue = { id: '1', name: '梅赛德斯', city: '上海', address: '' };
  api.getShow.mockResolvedValue({
    id: '3',
    title: '星河巡回演唱会',
    venueName: '梅奔',
    venue,
    ...o.show,
  } as never);
  api.getSeatStates.mockResolvedValue({ sessionId: '7', held: [], sold: o.sold ?? [], zones: [] });
}
