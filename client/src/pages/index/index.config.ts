export default definePageConfig({ navigationBarTitleText: '秀票 · 演出', enablePullDownRefresh: true });
