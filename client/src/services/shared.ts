/**
 * The runtime values the fan app takes from @showtix/shared-types, imported module by module.
 * The package's index also exports the ticket-code signer (@noble/curves), which computes tables
 * and needs TextEncoder when it loads: WeChat's JS engine has no TextEncoder, so importing the
 * index at runtime stops the compiled mini-program before its first page (and costs every fan
 * the start-up time). Types may come from the index (`import type` is erased).
 * Nothing here may pull in zod (about 500 KB of the H5 start bundle): the schemas the app
 * validates with come from ./schemas, which only the pages that check input import.
 */
export { ERRORS, isErrorCode } from '@showtix/shared-types/dist/errors';
export { ID_TYPES } from '@showtix/shared-types/dist/id-types';
export { maskIdNumber } from '@showtix/shared-types/dist/idcard';
export { maskPhone } from '@showtix/shared-types/dist/phone-format';
export { SHOW_CATEGORIES, SHOW_CATEGORY_LABEL } from '@showtix/shared-types/dist/category-codes';
export { ApiError, networkError, parseApiError } from '@showtix/shared-types/dist/api-error';
export { seatLabel, sectionLabel } from '@showtix/shared-types/dist/seat-label';
export { refundTerms } from '@showtix/shared-types/dist/refund';
