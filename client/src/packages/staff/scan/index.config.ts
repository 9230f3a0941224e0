export default definePageConfig({ navigationBarTitleText: '检票', disableScroll: true });
