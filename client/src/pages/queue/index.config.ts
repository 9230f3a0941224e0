export default definePageConfig({ navigationBarTitleText: '排队购票', disableScroll: true });
