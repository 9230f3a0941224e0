// enableShareAppMessage: the share card of a transfer offer (转赠), answered by useShareAppMessage.
export default definePageConfig({
  navigationBarTitleText: '我的票夹',
  enablePullDownRefresh: true,
  enableShareAppMessage: true,
});
