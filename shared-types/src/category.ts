import { z } from 'zod';
import { SHOW_CATEGORIES } from './category-codes';

export { SHOW_CATEGORIES, SHOW_CATEGORY_LABEL, type ShowCategory } from './category-codes';

/** A show's category as the APIs take it: one of the codes, nothing else. */
export const ShowCategorySchema = z.enum(SHOW_CATEGORIES, '演出分类不正确');

/** GET /api/v1/shows?category=: only the shows of that category (absent: every show). */
export const ShowListQuerySchema = z.object({
  category: ShowCategorySchema.optional(),
});
