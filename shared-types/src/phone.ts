import { z } from 'zod';
import { MOBILE_RE, normalizePhone } from './phone-format';

export { MOBILE_RE, maskPhone, normalizePhone } from './phone-format';

/** The order's contact number (联系手机), normalised, then checked as a mainland mobile. */
export const PhoneSchema = z
  .string()
  .max(20)
  .transform(normalizePhone)
  .pipe(z.string().regex(MOBILE_RE, '请输入正确的 11 位手机号'));
