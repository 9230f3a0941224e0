export * from './errors';
export * from './schemas';
export * from './api';
export * from './idcard';
export * from './phone';
export * from './admin';
// Apart from admin.ts, whose types it uses: re-exported there it made an import cycle.
export * from './admin-views';
export * from './degrade';
export * from './api-error';
export * from './seat-label';
export * from './refund';
export * from './reports';
export * from './notices';
export * from './session-change';
export * from './transfer';
export * from './comp';
export * from './category';
