export default definePageConfig({ navigationBarTitleText: '接收转赠' });
