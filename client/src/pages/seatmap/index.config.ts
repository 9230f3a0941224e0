export default definePageConfig({ navigationBarTitleText: '选座', disableScroll: true });
