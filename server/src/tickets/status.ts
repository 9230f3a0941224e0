/** tickets.status, named once. Only VALID is admissible and bindable. */
export const TICKET_STATUS = { VALID: 1, VOIDED: 2, REFUNDING: 3 } as const;
