/**
 * What kind of show a show is (issue 17 #13): a fixed set, stored as the short code on
 * shows.category (migration 0032, default 'other'). The one list of codes and their Chinese
 * labels; the order here is the order of the chips and of the admin's select. Plain constants,
 * no zod: the fan app's start bundle imports this (category.ts re-exports it with the schemas).
 */
export const SHOW_CATEGORIES = [
  'concert',
  'theatre',
  'music',
  'dance',
  'opera',
  'comedy',
  'sports',
  'kids',
  'other',
] as const;
export type ShowCategory = (typeof SHOW_CATEGORIES)[number];

export const SHOW_CATEGORY_LABEL: Record<ShowCategory, string> = {
  concert: '演唱会',
  theatre: '话剧歌剧',
  music: '音乐会',
  dance: '舞蹈芭蕾',
  opera: '戏曲',
  comedy: '相声脱口秀',
  sports: '体育赛事',
  kids: '亲子',
  other: '其他',
};
