import { serverForFile } from '../helpers/http';

const t = serverForFile();

describe('/readyz', () => {
  it('is not ready while a migration is missing, ready once it is applied', async () => {
    const [rows] = await t.env.deps.db.query('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1');
    const last = (rows as { name: string }[])[0]!.name;
    await t.env.deps.db.query('DELETE FROM schema_migrations WHERE name = ?', [last]);
    const notYet = await t.api.call('GET', '/readyz');
    expect(notYet.status).toBe(503);
    expect(notYet.body).toMatchObject({ ready: false, migrations: false, mysql: true, redis: true });
    await t.env.deps.db.query('INSERT INTO schema_migrations (name) VALUES (?)', [last]);
    expect((await t.api.call('GET', '/readyz')).body).toMatchObject({ ready: true, migrations: true });
  });

  it('turns not-ready once the instance drains, while /livez is answered up to then', async () => {
    expect((await t.api.call('GET', '/livez')).status).toBe(200);
    t.env.deps.lifecycle.startDrain();
    const r = await t.api.call('GET', '/readyz');
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });
});
