import { IdSchema, type ErrorCode } from '@showtix/shared-types';
import type { ZodType } from 'zod';
import { appError } from '../errors';

/** A path parameter checked by its schema; one that does not pass answers `code`. */
export function pathParam<T>(schema: ZodType<T>, value: string | undefined, code: ErrorCode): T {
  const r = schema.safeParse(value);
  if (!r.success) throw appError(code);
  return r.data;
}

/** Ids in paths that are not ids answer 404, like ids that do not exist. */
export const pathId = (value: string | undefined): string => pathParam(IdSchema, value, 'NOT_FOUND');
