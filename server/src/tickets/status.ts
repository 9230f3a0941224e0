import { TICKET_STATUS } from '../lifecycle/statuses';

/** A ticket's status (named in lifecycle/statuses.ts, beside its transitions). */
export { TICKET_STATUS };

export type TicketStatus = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];
