/**
 * Tests that stop or kill shared infrastructure (RabbitMQ) or processes: run one at a time,
 * after the main suite, so they never disturb tests running beside them.
 */
const base = require('./jest.config.js');

module.exports = { ...base, roots: ['<rootDir>/test/serial'], testPathIgnorePatterns: [], maxWorkers: 1 };
