import taro, { pages, resetTaro } from './stubs/taro';
import { back } from '../../src/routes';

beforeEach(() => resetTaro());

describe('back()', () => {
  it.each([
    ['WeChat', 'pages/seatmap/index', 'pages/confirm/index'],
    ["Taro's H5 router", '/pages/seatmap/index', '/pages/confirm/index'],
  ])('returns to the open page of a route in %s', (_, seatmap, confirm) => {
    pages.splice(0, pages.length, { route: '/pages/index/index' }, { route: seatmap }, { route: confirm });
    back('seatmap', { sessionId: '7' });
    expect(taro.navigateBack).toHaveBeenCalledWith({ delta: 1 });
    expect(taro.redirectTo).not.toHaveBeenCalled();
  });

  it('opens the route in place when the stack has none (a deep link)', () => {
    pages.splice(0, pages.length, { route: '/pages/confirm/index' });
    back('seatmap', { sessionId: '7' });
    expect(taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/seatmap/index?sessionId=7' });
  });
});
