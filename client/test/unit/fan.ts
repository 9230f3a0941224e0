import { act } from '@testing-library/react';
import taro, { resetTaro } from './stubs/taro';
import { clearSessionContext } from '../../src/services/context';

/** Lets `ms` of fake time pass, and the answers and renders due by then land. */
export const tick = (ms = 0) => act(() => jest.advanceTimersByTimeAsync(ms));

/**
 * For every test of the file: fresh Taro stand-ins and session context, a logged-in fan, fake
 * timers (at `now` if given).
 */
export function loggedInFan(now?: number): void {
  beforeEach(() => {
    resetTaro();
    clearSessionContext();
    jest.useFakeTimers(now === undefined ? undefined : { now });
    taro.setStorageSync('showtix.token', 'tok');
  });
  afterEach(() => jest.useRealTimers());
}
