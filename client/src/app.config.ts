export default defineAppConfig({
  // Keep in step with ROUTES in routes.ts.
  pages: [
    'pages/index/index',
    'pages/show/index',
    'pages/queue/index',
    'pages/seatmap/index',
    'pages/confirm/index',
    'pages/orders/index',
    'pages/order/index',
    'pages/tickets/index',
    'pages/me/index',
    'pages/attendees/index',
    'pages/about/index',
    'pages/transfer/index',
    'pages/comp/index',
  ],
  // Only the components a page renders are injected (WeChat's 按需注入; shorter start-up).
  lazyCodeLoading: 'requiredComponents',
  // Gate staff only: not part of the package every fan downloads.
  subPackages: [{ root: 'packages/staff', pages: ['scan/index', 'invite/index'] }],
  window: {
    backgroundTextStyle: 'dark',
    navigationBarBackgroundColor: '#ffffff',
    navigationBarTitleText: '秀票',
    navigationBarTextStyle: 'black',
    backgroundColor: '#f4f4f7',
  },
});
