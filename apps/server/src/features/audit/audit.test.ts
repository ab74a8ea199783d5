import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditChoicesAnswer, AuditLogAnswer, AuditVerifyAnswer } from '@fieldlink/api/audit';
import { SYSTEM_AUDIT_CHAIN } from '@fieldlink/domain/audit';
import { DEMO_PASSWORD, DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

const DAY_MS = 86_400_000;

describe.each(DIALECTS)('audit trail on %s', (dialect) => {
  let t: TestApp;
  let clock = Date.now();
  let water: string;
  let brew: string;
  let ops: string;
  let waterAccount: string;
  let waterRoot: string;
  let brewAccount: string;

  const get = (url: string, authorization: string, query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization }, query });
  const list = async (query: Record<string, string>, authorization = water) => {
    const response = await get('/audit-log', authorization, { accountId: waterAccount, ...query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AuditLogAnswer;
  };
  const verify = async (accountId = waterAccount, authorization = water) => {
    const response = await get('/audit-log/verify', authorization, { accountId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AuditVerifyAnswer;
  };
  const addGroup = (name: string, authorization = water) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/group',
      headers: { authorization },
      payload: { parentId: waterRoot, name },
    });
  const accountOf = async (email: string) => {
    const row = await t.app.storage.db
      .selectFrom('attachment_points')
      .innerJoin('users', 'users.id', 'attachment_points.user_id')
      .innerJoin('accounts', 'accounts.id', 'attachment_points.account_id')
      .select(['accounts.id', 'accounts.root_group_id'])
      .where('users.email', '=', email)
      .orderBy('attachment_points.ordinal')
      .executeTakeFirstOrThrow();
    return row;
  };
  const rows = (accountId: string) =>
    t.app.storage.db.selectFrom('audit_log').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();

  beforeAll(async () => {
    t = await startTestApp(dialect, { now: () => clock });
    [water, brew, ops] = (await Promise.all(
      ['water', 'brew', 'ops'].map((name) => signIn(t.app, `${name}@fieldlink.test`)),
    )) as [string, string, string];
    ({ id: waterAccount, root_group_id: waterRoot } = await accountOf('water@fieldlink.test'));
    brewAccount = (await accountOf('brew@fieldlink.test')).id;
  }, 180_000);
  afterAll(() => t?.close());

  // Three scrypt checks (N = 2^17) besides the four of beforeAll: slow on a loaded machine.
  it('records sign-ins, and refused ones in the account or, for an unknown e-mail, the system chain', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      headers: { 'user-agent': 'audit-test/1' },
      payload: { email: 'water@fieldlink.test', password: 'wrong password' },
    });
    expect(bad.statusCode).toBe(401);
    const refused = (await list({ action: 'session.signInRefused' })).entries;
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      actor: { kind: 'user', name: 'water@fieldlink.test' },
      address: '127.0.0.1',
      client: 'http; audit-test/1',
      action: 'session.signInRefused',
    });
    const signIns = (await list({ action: 'session.signIn' })).entries;
    expect(signIns.map((entry) => entry.actor.name)).toEqual(['water@fieldlink.test']);

    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: 'nobody-here@fieldlink.test', password: DEMO_PASSWORD },
    });
    expect(unknown.statusCode).toBe(401);
    const system = await rows(SYSTEM_AUDIT_CHAIN);
    expect(system.map((row) => [row.action, row.actor_name])).toEqual([
      ['session.signInRefused', 'nobody-here@fieldlink.test'],
    ]);
  }, 120_000);

  it('lists an account’s changes newest first with who, from where, before and after, a page at a time', async () => {
    for (const name of ['Audit A', 'Audit B', 'Audit C']) expect((await addGroup(name)).statusCode).toBe(200);
    const first = await list({ action: 'group.add', limit: '2' });
    expect(first.entries.map((entry) => entry.after)).toEqual([
      { name: 'Audit C', parentId: waterRoot },
      { name: 'Audit B', parentId: waterRoot },
    ]);
    expect(first.entries[0]).toMatchObject({
      accountId: waterAccount,
      actor: { kind: 'user', name: 'water@fieldlink.test' },
      address: '127.0.0.1',
      client: expect.stringMatching(/^http/),
      target: { kind: 'group', name: 'Audit C' },
      before: null,
    });
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ action: 'group.add', limit: '2', cursor: first.nextCursor! });
    expect(second.entries.map((entry) => (entry.after as { name: string }).name)).toEqual(['Audit A']);
    expect(second.nextCursor).toBeNull();
    // Each entry carries the hash of the one before it in the account.
    const all = (await list({ limit: '500' })).entries;
    for (let i = 0; i < all.length - 1; i += 1) expect(all[i]!.prevHash).toBe(all[i + 1]!.hash);
  });

  it('filters by user, action and time range', async () => {
    const groupId = (await addGroup('Audit D')).json().id as string;
    const rename = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/group',
      headers: { authorization: water },
      payload: { id: groupId, name: 'Audit D2' },
    });
    expect(rename.statusCode).toBe(200);
    const renamed = (await list({ action: 'group.rename' })).entries;
    expect(renamed.map((entry) => [entry.before, entry.after])).toEqual([[{ name: 'Audit D' }, { name: 'Audit D2' }]]);
    const userId = renamed[0]!.actor.id;
    expect((await list({ userId })).entries.every((entry) => entry.actor.id === userId)).toBe(true);
    expect((await list({ userId: 'someone-else-entirely' })).entries).toEqual([]);
    const at = renamed[0]!.at;
    expect((await list({ from: String(at), to: String(at), action: 'group.rename' })).entries).toHaveLength(1);
    expect((await list({ from: String(at + 1), action: 'group.rename' })).entries).toHaveLength(0);
    expect((await list({ to: String(at - 1), action: 'group.rename' })).entries).toHaveLength(0);
  });

  it('offers the filters every actor and device of the trail, named by their newest entry', async () => {
    const device = await t.app.storage.db
      .selectFrom('devices')
      .select(['id', 'name'])
      .where('account_id', '=', waterAccount)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const tagged = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/device/tag',
      headers: { authorization: water },
      payload: { deviceId: device.id, key: 'site', value: 'North' },
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    const response = await get('/audit-log/choices', water, { accountId: waterAccount });
    expect(response.statusCode, response.body).toBe(200);
    const { actors, devices } = response.json() as AuditChoicesAnswer;
    const waterUser = actors.find((actor) => actor.name === 'water@fieldlink.test');
    expect(waterUser).toMatchObject({ kind: 'user' });
    expect(actors.filter((actor) => actor.id === waterUser!.id)).toHaveLength(1);
    expect(devices).toContainEqual({ id: device.id, name: device.name });
    // Each offered choice finds entries.
    expect((await list({ deviceId: device.id })).entries[0]).toMatchObject({ action: 'device.tags' });
    expect((await list({ userId: waterUser!.id })).entries.length).toBeGreaterThan(0);
    // Scoped as the log itself.
    expect((await get('/audit-log/choices', brew, { accountId: waterAccount })).statusCode).toBe(404);
  });

  it.each([
    [{ limit: '0' }, /limit/],
    [{ limit: '501' }, /limit/],
    [{ limit: 'many' }, /limit/],
    [{ cursor: 'abc' }, /cursor/],
    [{ cursor: '-1' }, /cursor/],
    [{ action: 'device.explode' }, 'Unknown action "device.explode".'],
    [{ from: '2000', to: '1000' }, 'The time range ends before it starts: "from" must not be after "to".'],
    [{ from: 'yesterday' }, /from/],
    [{ colour: 'red' }, /additional properties/],
  ])('answers %j with a clear 400', async (query, message) => {
    const response = await get('/audit-log', water, { accountId: waterAccount, ...query });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('needs an administrator whose scope holds the account', async () => {
    expect((await get('/audit-log', ops, { accountId: (await accountOf('ops@fieldlink.test')).id })).statusCode).toBe(
      403,
    );
    expect((await get('/audit-log', brew, { accountId: waterAccount })).statusCode).toBe(404);
    expect((await get('/audit-log/verify', brew, { accountId: waterAccount })).statusCode).toBe(404);
    expect((await get('/audit-log', brew, { accountId: 'no-such-account' })).statusCode).toBe(404);
    expect((await get('/audit-log', brew, { accountId: brewAccount })).statusCode).toBe(200);
  });

  it('keeps one unbroken chain under parallel writers of one account', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => addGroup(`Parallel ${i}`)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    const seqs = (await rows(waterAccount)).map((row) => row.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(await verify()).toMatchObject({ intact: true, brokenAt: null, firstSeq: 1, lastSeq: seqs.length });
  });

  it('finds an entry changed in the database, one removed, and one forged at the end', async () => {
    const { db } = t.app.storage;
    const before = await rows(waterAccount);
    const victim = before.find((row) => row.action === 'group.rename')!;
    await db.updateTable('audit_log').set({ after: '{"name":"Innocent"}' }).where('id', '=', victim.id).execute();
    expect((await verify()).brokenAt).toEqual({
      seq: victim.seq,
      id: victim.id,
      reason: 'The entry was changed after it was written.',
    });
    await db.updateTable('audit_log').set({ after: victim.after }).where('id', '=', victim.id).execute();
    expect((await verify()).intact).toBe(true);

    // A forged entry with a hash that fits its own content but not the chain.
    const last = before[before.length - 1]!;
    await db
      .insertInto('audit_log')
      .values({ ...last, id: 'forged-entry', seq: last.seq + 1, prev_hash: 'f'.repeat(64), action: 'group.add' })
      .execute();
    expect((await verify()).brokenAt).toMatchObject({ seq: last.seq + 1, id: 'forged-entry' });
    await db.deleteFrom('audit_log').where('id', '=', 'forged-entry').execute();

    const middle = before[2]!;
    await db.deleteFrom('audit_log').where('id', '=', middle.id).execute();
    expect(await verify()).toMatchObject({
      intact: false,
      brokenAt: { seq: middle.seq, id: null, reason: `Entry ${middle.seq} is missing.` },
    });
    await db.insertInto('audit_log').values(middle).execute();

    await db.deleteFrom('audit_log').where('id', '=', last.id).execute();
    expect((await verify()).brokenAt).toMatchObject({
      seq: last.seq,
      reason: `Entries ${last.seq} to ${last.seq} are missing.`,
    });
    await db.insertInto('audit_log').values(last).execute();
    expect((await verify()).intact).toBe(true);
  });

  it('trims entries past the retention and verifies from the chain’s new start, recording the trim', async () => {
    const kept = (await rows(waterAccount)).length;
    clock += 800 * DAY_MS;
    // Two years on, the sessions opened before have long ended (TOKEN_TTL_SECONDS): open new ones,
    // directly (a sign-in would add an entry of its own to the chain).
    const sessionNow = async (email: string) => {
      const user = await t.app.storage.db
        .selectFrom('users')
        .select(['id', 'token_version'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      return t.app.tokens.issue(user.id, user.token_version);
    };
    const waterNow = await sessionNow('water@fieldlink.test');
    expect((await addGroup('After two years', waterNow)).statusCode).toBe(200);
    // The group above is recorded at the real time, 800 days before the clock: it goes too.
    expect(await t.app.audit.applyRetention()).toBeGreaterThanOrEqual(kept + 1);
    const left = await rows(waterAccount);
    const start = kept + 2;
    expect(left.map((row) => row.action)).toEqual(['audit.trim']);
    expect(left[0]).toMatchObject({ actor_kind: 'system', actor_name: 'auditRetention', seq: start });
    expect(await verify(waterAccount, waterNow)).toMatchObject({
      intact: true,
      checked: 1,
      firstSeq: start,
      lastSeq: start,
    });
    expect((await verify(brewAccount, await sessionNow('brew@fieldlink.test'))).intact).toBe(true);
  });
});
