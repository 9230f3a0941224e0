export default defineAppConfig({
  // Keep in step with ROUTES in routes.ts. Reserved for later issues (see routes.ts):
  // 'pages/queue/index' here, and subPackages: [{ root: 'packages/staff', pages: ['scan/index'] }].
  pages: [
    'pages/index/index',
    'pages/show/index',
    'pages/seatmap/index',
    'pages/confirm/index',
    'pages/orders/index',
    'pages/order/index',
    'pages/tickets/index',
  ],
  window: {
    backgroundTextStyle: 'dark',
    navigationBarBackgroundColor: '#ffffff',
    navigationBarTitleText: '秀票',
    navigationBarTextStyle: 'black',
    backgroundColor: '#f4f4f7',
  },
});
