export * from './errors';
export * from './schemas';
export * from './api';
export * from './idcard';
export * from './phone';
export * from './admin';
export * from './degrade';
