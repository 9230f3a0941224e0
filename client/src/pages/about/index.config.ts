export default definePageConfig({ navigationBarTitleText: '关于与协议' });
