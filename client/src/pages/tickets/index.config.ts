export default definePageConfig({ navigationBarTitleText: '我的票夹', enablePullDownRefresh: true });
