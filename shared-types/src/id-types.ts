/**
 * The identity documents a real-name ticket may carry. Plain constants, no zod: the fan app's
 * start bundle imports this (schemas.ts re-exports it for everyone else).
 */
export const ID_TYPES = ['id_card', 'passport', 'hk_macau_permit', 'taiwan_permit'] as const;
