/**
 * A ticket's status, named once. Only VALID is admissible at a gate; REFUNDING holds a ticket
 * while a refund of its order is open (requested, at WeChat, or abnormal), VOIDED once refunded.
 */
export const TICKET_STATUS = { VALID: 1, VOIDED: 2, REFUNDING: 3 } as const;

export type TicketStatus = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];
