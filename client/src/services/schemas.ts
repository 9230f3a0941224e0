/**
 * The shared zod schemas the fan app validates input with (the server runs the same ones).
 * Kept apart from ./shared so that zod stays out of the H5 start bundle: only the modules that
 * check an attendee, a contact number or an order import this, and those load with their pages
 * (on H5 zod goes to one async chunk, see config/index.ts).
 */
export { AttendeeSchema, CreateOrderSchema } from '@showtix/shared-types/dist/schemas';
export { PhoneSchema } from '@showtix/shared-types/dist/phone';
