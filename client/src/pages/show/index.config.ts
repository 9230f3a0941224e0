export default definePageConfig({ navigationBarTitleText: '演出详情' });
