export default definePageConfig({ navigationBarTitleText: '领取赠票' });
