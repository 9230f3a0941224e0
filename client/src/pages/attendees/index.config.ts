export default definePageConfig({ navigationBarTitleText: '常用观演人' });
