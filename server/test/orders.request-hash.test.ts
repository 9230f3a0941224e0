import { createHash } from 'node:crypto';
import { requestHash } from '../src/orders/create';

/** What a stored order's request_hash was computed as: SHA-256 of the canonical JSON, in hex. */
const sha256 = (canonical: string) => createHash('sha256').update(canonical).digest('hex');

describe('requestHash: stable, so a retry matches the hash stored with its order', () => {
  it('hashes the canonical form of a seat purchase (seats sorted) and of a zone purchase', () => {
    expect(requestHash({ sessionId: '7', seatIds: ['12', '3'] })).toBe(
      sha256('{"s":"7","seats":["12","3"],"a":null}'),
    );
    expect(requestHash({ sessionId: '7', zoneId: '3', quantity: 2 })).toBe(
      sha256('{"s":"7","zone":"3","q":2,"a":null}'),
    );
  });

  it('includes a contact phone only when one was given', () => {
    expect(requestHash({ sessionId: '7', zoneId: '3', quantity: 1, contactPhone: '13800138000' })).toBe(
      sha256('{"s":"7","zone":"3","q":1,"a":null,"p":"13800138000"}'),
    );
  });
});
