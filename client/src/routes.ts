import Taro from '@tarojs/taro';

/**
 * Route table of the fan's app. Every page here is also listed in app.config.ts; the gate
 * staff's pages are a sub-package (packages/staff), downloaded only by those who open them.
 */
export const ROUTES = {
  home: '/pages/index/index',
  show: '/pages/show/index',
  queue: '/pages/queue/index',
  seatmap: '/pages/seatmap/index',
  confirm: '/pages/confirm/index',
  orders: '/pages/orders/index',
  order: '/pages/order/index',
  tickets: '/pages/tickets/index',
  me: '/pages/me/index',
  attendees: '/pages/attendees/index',
  about: '/pages/about/index',
  transfer: '/pages/transfer/index',
  comp: '/pages/comp/index',
  staffScan: '/packages/staff/scan/index',
  staffInvite: '/packages/staff/invite/index',
} as const;

export type RouteName = keyof typeof ROUTES;

/** The top-level pages of the bottom tab bar: switching between them replaces the stack. */
export const TABS: { route: RouteName; text: string }[] = [
  { route: 'home', text: '演出' },
  { route: 'tickets', text: '票夹' },
  { route: 'orders', text: '订单' },
  { route: 'me', text: '我的' },
];

export function routeUrl(name: RouteName, params: Record<string, string | number | undefined> = {}): string {
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return q ? `${ROUTES[name]}?${q}` : ROUTES[name];
}

export function go(name: RouteName, params?: Record<string, string | number | undefined>): void {
  void Taro.navigateTo({ url: routeUrl(name, params) });
}

export function replace(name: RouteName, params?: Record<string, string | number | undefined>): void {
  void Taro.redirectTo({ url: routeUrl(name, params) });
}

export function switchTab(name: RouteName, params?: Record<string, string | number | undefined>): void {
  void Taro.reLaunch({ url: routeUrl(name, params) });
}

/**
 * Back to the nearest open page of that route (keeping its state, e.g. the seat map), or, when
 * the stack has none (a deep link), a fresh one in place of the current page.
 */
export function back(name: RouteName = 'home', params?: Record<string, string | number | undefined>): void {
  const stack = Taro.getCurrentPages();
  const target = ROUTES[name].slice(1);
  for (let i = stack.length - 2; i >= 0; i--) {
    // WeChat names routes 'pages/x/index', Taro's H5 router '/pages/x/index'.
    if (stack[i]?.route?.split('?')[0]?.replace(/^\//, '') === target) {
      void Taro.navigateBack({ delta: stack.length - 1 - i });
      return;
    }
  }
  replace(name, params);
}

/** One page back, or home when this page was opened directly. */
export function goBack(): void {
  if (Taro.getCurrentPages().length > 1) void Taro.navigateBack();
  else switchTab('home');
}
