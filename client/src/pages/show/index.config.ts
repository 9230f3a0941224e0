// enableShareAppMessage: WeChat offers 转发 for this page (the page answers useShareAppMessage).
export default definePageConfig({ navigationBarTitleText: '演出详情', enableShareAppMessage: true });
