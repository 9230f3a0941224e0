import { createUsers } from '../helpers/fixtures';
import { serverForFile } from '../helpers/http';

/** Issue 12.8: public routes that write to the database are limited per account (defaults). */
const t = serverForFile();

it('saved-attendee writes and invite-code guesses stop at 30 a minute per account', async () => {
  const [u] = await createUsers(t.env.deps, 1);
  const token = await t.api.tokenFor(u!);
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++)
    statuses.push((await t.api.call('DELETE', `/api/v1/me/attendees/${900 + i}`, { token })).status);
  expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
  expect(statuses[30]).toBe(429);
  const guess = await t.api.call('POST', '/api/v1/staff/invites/redeem', {
    token,
    body: { code: 'ABCDEFGH' },
  });
  expect(guess.status).toBe(429);
  expect(guess.body.error.code).toBe('RATE_LIMITED');
});
