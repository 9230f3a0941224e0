export default definePageConfig({ navigationBarTitleText: '检票邀请码' });
