import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import { childPath } from '@fieldlink/domain/group-path';
import { newId } from '../../security/secrets';
import { DIALECTS, addTestUser, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

describe.each(DIALECTS)('user calls on %s', (dialect) => {
  let t: TestApp;
  let ops: string;
  let viewer: string;
  let brew: string;

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, authorization: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, ...(payload && { payload }) });
  const tree = async (authorization: string) => (await call('GET', '/account', authorization)).json() as AccountAnswer;
  const findGroup = (node: GroupNode, name: string): GroupNode | undefined =>
    node.name === name ? node : node.groups.map((child) => findGroup(child, name)).find(Boolean);
  const groupOf = async (authorization: string, name: string) =>
    findGroup((await tree(authorization)).accounts[0]!.rootGroup, name)!;
  const mailsTo = (email: string) =>
    t.app.storage.db.selectFrom('outbox').selectAll().where('to_address', '=', email).orderBy('created_at').execute();
  const codeOf = (text: string) => /[?&]code=([A-Za-z0-9_-]+)/.exec(text)![1]!;
  const userRow = (email: string) =>
    t.app.storage.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    [ops, viewer, brew] = (await Promise.all(
      ['ops', 'viewer', 'brew'].map((name) => signIn(t.app, `${name}@fieldlink.test`)),
    )) as [string, string, string];
  });
  afterAll(() => t?.close());

  describe('GET /user', () => {
    it('answers the caller itself, with its muted devices', async () => {
      const response = await call('GET', '/user?email=viewer@fieldlink.test', viewer);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        email: 'viewer@fieldlink.test',
        isSelf: true,
        permissions: ['VIEW_DASH'],
      });
    });

    it('answers another user in scope to a holder of VIEW_ACCOUNTS, without their private props', async () => {
      const response = await call('GET', '/user?email=VIEWER@fieldlink.test', ops);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ email: 'viewer@fieldlink.test', isSelf: false, mutedDevices: [] });
    });

    it('refuses other users to a user without VIEW_ACCOUNTS (403)', async () =>
      expect((await call('GET', '/user?email=ops@fieldlink.test', viewer)).statusCode).toBe(403));

    it('answers a user of another account exactly like a missing one (404)', async () => {
      const foreign = await call('GET', '/user?email=brew@fieldlink.test', ops);
      const missing = await call('GET', '/user?email=nobody@fieldlink.test', ops);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
    });

    it('refuses unknown query fields (400)', async () =>
      expect((await call('GET', '/user?email=ops@fieldlink.test&admin=1', ops)).statusCode).toBe(400));
  });

  describe('PUT /user', () => {
    it('saves the caller’s theme and muted devices and answers them', async () => {
      const response = await call('PUT', '/user', viewer, {
        email: 'viewer@fieldlink.test',
        props: { theme: 'DARK', mutedDevices: ['ACME-BLR01'] },
        updateId: 'tab1:1',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        applied: true,
        latestUserUpdateId: 'tab1:1',
        props: { theme: 'DARK', mutedDevices: ['ACME-BLR01'] },
      });
    });

    it('ignores a stale update of the same series, and applies another series', async () => {
      const stale = await call('PUT', '/user', viewer, {
        email: 'viewer@fieldlink.test',
        props: { mutedDevices: [] },
        updateId: 'tab1:1',
      });
      expect(stale.json()).toMatchObject({ applied: false, props: { mutedDevices: ['ACME-BLR01'] } });
      expect((await userRow('viewer@fieldlink.test')).muted_devices).toBe('["ACME-BLR01"]');
      const other = await call('PUT', '/user', viewer, {
        email: 'viewer@fieldlink.test',
        props: { mutedDevices: [] },
        updateId: 'phone:1',
      });
      expect(other.json()).toMatchObject({ applied: true, props: { mutedDevices: [] } });
    });

    it('refuses to mute another account’s device as if it did not exist (404)', async () => {
      const response = await call('PUT', '/user', viewer, {
        email: 'viewer@fieldlink.test',
        props: { mutedDevices: ['NGB-FV01'] },
      });
      expect(response.statusCode).toBe(404);
      expect((await userRow('viewer@fieldlink.test')).muted_devices).toBe('[]');
    });

    it.each([
      ['own permissions', 'viewer', 'viewer@fieldlink.test', { permissions: ['ADMIN'] }, 403],
      ['another user’s theme', 'ops', 'viewer@fieldlink.test', { theme: 'DARK' }, 403],
      ['another user without EDIT_DELETE_USERS', 'ops', 'viewer@fieldlink.test', { lastName: 'X' }, 403],
      ['an unknown prop', 'viewer', 'viewer@fieldlink.test', { accountId: 'x' }, 400],
      ['a theme the console does not have', 'viewer', 'viewer@fieldlink.test', { theme: 'neon' }, 400],
      ['no props', 'viewer', 'viewer@fieldlink.test', {}, 400],
      ['another user’s time zone', 'ops', 'viewer@fieldlink.test', { timeZone: 'Europe/London' }, 403],
      ['a time zone nobody knows', 'viewer', 'viewer@fieldlink.test', { timeZone: 'Mars/Olympus' }, 400],
      ['a time zone that is no name', 'viewer', 'viewer@fieldlink.test', { timeZone: '../../etc' }, 400],
      ['an hour cycle of 13', 'viewer', 'viewer@fieldlink.test', { hourCycle: '13' }, 400],
      ['a year-first date order', 'viewer', 'viewer@fieldlink.test', { dateOrder: 'ymd' }, 400],
    ])('refuses %s (%d) and changes nothing', async (_label, who, email, props, status) => {
      const before = await userRow(email);
      const token = who === 'ops' ? ops : viewer;
      expect((await call('PUT', '/user', token, { email, props })).statusCode).toBe(status);
      expect(await userRow(email)).toEqual(before);
    });

    it('saves the caller’s clock (issue 36 item 2), answers it in /self, and shows it to nobody else', async () => {
      const clock = { timeZone: 'America/New_York', hourCycle: '12', dateOrder: 'mdy' };
      const response = await call('PUT', '/user', viewer, { email: 'viewer@fieldlink.test', props: clock });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ applied: true, props: clock });
      expect((await call('GET', '/self', viewer)).json()).toMatchObject(clock);
      expect((await call('GET', '/user?email=viewer@fieldlink.test', viewer)).json()).toMatchObject(clock);
      expect((await call('GET', '/user?email=viewer@fieldlink.test', ops)).json()).toMatchObject({
        timeZone: null,
        hourCycle: null,
        dateOrder: null,
      });
      // Null hands each choice back to the browser.
      const reset = await call('PUT', '/user', viewer, {
        email: 'viewer@fieldlink.test',
        props: { timeZone: null, hourCycle: null, dateOrder: null },
      });
      expect(reset.json()).toMatchObject({ props: { timeZone: null, hourCycle: null, dateOrder: null } });
      expect(await userRow('viewer@fieldlink.test')).toMatchObject({
        time_zone: null,
        hour_cycle: null,
        date_order: null,
      });
    });

    it('lets an admin change another user’s permissions within its own', async () => {
      const water = await signIn(t.app, 'water@fieldlink.test');
      // Filtec's admin invites and signs up a colleague, then changes what they may do.
      const root = (await tree(water)).accounts[0]!.rootGroup;
      const invite = await call('POST', '/invite-user', water, {
        email: 'colleague@filtec.test',
        path: root.relativePath,
        permissions: ['VIEW_DASH'],
      });
      expect(invite.statusCode).toBe(200);
      const [mail] = await mailsTo('colleague@filtec.test');
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        payload: {
          email: 'colleague@filtec.test',
          code: codeOf(mail!.text),
          password: 'a-long-password',
          firstName: 'Col',
          lastName: 'League',
        },
      });
      expect(signup.statusCode).toBe(200);
      const response = await call('PUT', '/user', water, {
        email: 'colleague@filtec.test',
        props: { permissions: ['VIEW_DASH', 'VIEW_ACCOUNTS'], lastName: 'Colleague' },
      });
      expect(response.statusCode).toBe(200);
      const self = await call('GET', '/self', signup.json().jwt);
      expect(self.json().linkedAccounts[0].attachmentPoints[0].permissions).toEqual(['VIEW_DASH', 'VIEW_ACCOUNTS']);
      expect(self.json().lastName).toBe('Colleague');
    });
  });

  describe('POST /invite-user and sign-up', () => {
    it('mails a sign-up link; signing up gives exactly the granted permissions at that group', async () => {
      const cold = await groupOf(ops, 'Cold Store');
      const response = await call('POST', '/invite-user', ops, {
        email: ' New.Hire@Acme.test ',
        path: cold.relativePath,
        permissions: ['VIEW_DASH', 'VIEW_ACCOUNTS'],
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toMatchObject({
        email: 'new.hire@acme.test',
        groupId: cold.id,
        path: cold.relativePath,
        permissions: ['VIEW_DASH', 'VIEW_ACCOUNTS'],
      });
      expect((await groupOf(ops, 'Cold Store')).invitations).toEqual([
        { email: 'new.hire@acme.test', expiresAt: response.json().user.expiresAt },
      ]);
      const [mail] = await mailsTo('new.hire@acme.test');
      expect(mail!.text).toContain('/signup?email=new.hire%40acme.test&code=');
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        payload: {
          email: 'new.hire@acme.test',
          code: codeOf(mail!.text),
          password: 'a-long-password',
          firstName: 'New',
          lastName: 'Hire',
        },
      });
      expect(signup.statusCode).toBe(200);
      const self = (await call('GET', '/self', signup.json().jwt)).json();
      expect(self.linkedAccounts[0].attachmentPoints[0]).toMatchObject({
        path: cold.relativePath,
        permissions: ['VIEW_DASH', 'VIEW_ACCOUNTS'],
        secretPermissions: [],
      });
      expect((await groupOf(ops, 'Cold Store')).fullUsers.map((u) => u.email)).toContain('new.hire@acme.test');
    });

    it.each([
      ['a permission the inviter lacks', { permissions: ['READ_REPORTS'] }, 403],
      ['ADMIN', { permissions: ['ADMIN'] }, 403],
      ['a flag the inviter lacks', { permissions: [], secretPermissions: ['OTA_UPDATE'] }, 403],
      ['a sub-permission without its parent', { permissions: ['INVITE_USERS'] }, 400],
      ['an unknown permission', { permissions: ['ROOT'] }, 400],
      ['a field the caller must not set', { permissions: [], accountId: 'x' }, 400],
    ])('refuses to grant %s (%d) and mails nothing', async (_label, body, status) => {
      const root = (await tree(ops)).accounts[0]!.rootGroup;
      const response = await call('POST', '/invite-user', ops, {
        email: 'refused@acme.test',
        path: root.relativePath,
        ...body,
      });
      expect(response.statusCode).toBe(status);
      expect(await mailsTo('refused@acme.test')).toEqual([]);
    });

    it('refuses a user without INVITE_USERS (403)', async () => {
      const root = (await tree(viewer)).accounts[0]!.rootGroup;
      const response = await call('POST', '/invite-user', viewer, {
        email: 'x@acme.test',
        path: root.relativePath,
        permissions: [],
      });
      expect(response.statusCode).toBe(403);
    });

    it('answers another account’s group like a missing one (404) and mails nothing', async () => {
      const cellar = await groupOf(brew, 'Cellar');
      const foreign = await call('POST', '/invite-user', ops, {
        email: 'spy@acme.test',
        path: cellar.relativePath,
        permissions: [],
      });
      const missing = await call('POST', '/invite-user', ops, {
        email: 'spy@acme.test',
        path: './nope',
        permissions: [],
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(await mailsTo('spy@acme.test')).toEqual([]);
    });

    it('refuses a person already in the account (409), but answers an e-mail of another account like any other', async () => {
      const root = (await tree(ops)).accounts[0]!.rootGroup;
      const inScope = await call('POST', '/invite-user', ops, {
        email: 'viewer@fieldlink.test',
        path: root.relativePath,
        permissions: [],
      });
      expect(inScope.statusCode).toBe(409);
      const elsewhere = await call('POST', '/invite-user', ops, {
        email: 'brew@fieldlink.test',
        path: root.relativePath,
        permissions: [],
      });
      expect(elsewhere.statusCode).toBe(200);
      expect(Object.keys(elsewhere.json().user).sort()).toEqual(
        [
          'accountId',
          'email',
          'expiresAt',
          'groupId',
          'monitorOnly',
          'path',
          'permissions',
          'secretPermissions',
        ].sort(),
      );
    });

    it('refuses New Devices and Trash as the place to join (400)', async () => {
      const trash = await groupOf(ops, 'Trash');
      const response = await call('POST', '/invite-user', ops, {
        email: 'bin@acme.test',
        path: trash.relativePath,
        permissions: [],
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('POST /reinvite-user', () => {
    it('mails a new link; the old one stops working', async () => {
      const root = (await tree(ops)).accounts[0]!.rootGroup;
      await call('POST', '/invite-user', ops, { email: 'again@acme.test', path: root.relativePath, permissions: [] });
      const response = await call('POST', '/reinvite-user', ops, { email: 'again@acme.test' });
      expect(response.statusCode).toBe(200);
      const [first, second] = await mailsTo('again@acme.test');
      const signup = (code: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/user',
          payload: { email: 'again@acme.test', code, password: 'a-long-password', firstName: 'A', lastName: 'G' },
        });
      expect((await signup(codeOf(first!.text))).statusCode).toBe(400);
      expect((await signup(codeOf(second!.text))).statusCode).toBe(200);
    });

    it('answers an invitation of another account like a missing one (404)', async () => {
      const cellar = await groupOf(brew, 'Cellar');
      await call('POST', '/invite-user', brew, {
        email: 'brewer2@ngb.test',
        path: cellar.relativePath,
        permissions: [],
      });
      const foreign = await call('POST', '/reinvite-user', ops, { email: 'brewer2@ngb.test' });
      const missing = await call('POST', '/reinvite-user', ops, { email: 'nobody@ngb.test' });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(await mailsTo('brewer2@ngb.test')).toHaveLength(1);
    });
  });

  describe('users of accounts below the caller’s (issue 35 item 5)', () => {
    /** The account ids of a tree: the top one, then each customer account below it, depth first. */
    const accountIdsOf = (node: GroupNode): string[] => [
      node.accountId,
      ...node.groups.flatMap(accountIdsOf).filter((id) => id !== node.accountId),
    ];

    /** A customer account of Acme (depth 3 from the supplier), with a user attached at its root. */
    async function addAccountBelowAcme(): Promise<{ accountId: string }> {
      const boilerRoom = await groupOf(ops, 'Boiler Room');
      const { db } = t.app.storage;
      const accountId = newId();
      const rootId = newId();
      const rootPath = childPath(boilerRoom.relativePath, rootId);
      await db
        .insertInto('accounts')
        .values({
          id: accountId,
          name: 'Acme East',
          app_type: 'default',
          kind: 'customer',
          user_variant: null,
          theme: null,
          root_group_id: rootId,
          created_at: Date.now(),
        })
        .execute();
      await db
        .insertInto('groups')
        .values({
          id: rootId,
          account_id: accountId,
          parent_id: boilerRoom.id,
          name: 'Acme East',
          kind: 'root',
          path: rootPath,
          created_at: Date.now(),
        })
        .execute();
      await addTestUser(t.app, { email: 'deep@acme.test', accountId, path: rootPath, permissions: ['VIEW_DASH'] });
      return { accountId };
    }

    it('opens a user of a customer account (depth 2) with the supplier tree’s top account, and edits it', async () => {
      const admin = await signIn(t.app, 'admin@fieldlink.test');
      const top = (await tree(admin)).accounts[0]!;
      const acme = await groupOf(ops, 'Acme Controls');
      for (const accountId of [top.id, acme.accountId]) {
        const response = await call('GET', `/user?email=viewer@fieldlink.test&accountId=${accountId}`, admin);
        expect(response.statusCode, accountId).toBe(200);
        expect(response.json()).toMatchObject({ email: 'viewer@fieldlink.test', isSelf: false });
      }
      const edit = await call('PUT', '/user', admin, {
        email: 'viewer@fieldlink.test',
        props: { firstName: 'Victoria' },
      });
      expect(edit.statusCode).toBe(200);
      expect((await userRow('viewer@fieldlink.test')).first_name).toBe('Victoria');
    });

    it('opens and edits a user at depth 3 with any account of the tree above it', async () => {
      const admin = await signIn(t.app, 'admin@fieldlink.test');
      const { accountId } = await addAccountBelowAcme();
      const ids = accountIdsOf((await tree(admin)).accounts[0]!.rootGroup);
      const acme = await groupOf(ops, 'Acme Controls');
      expect(ids).toEqual(expect.arrayContaining([acme.accountId, accountId]));
      for (const shownIn of [ids[0]!, acme.accountId, accountId]) {
        const response = await call('GET', `/user?email=deep@acme.test&accountId=${shownIn}`, admin);
        expect(response.statusCode, shownIn).toBe(200);
        // ops@ (attached at Acme's root) sees it too, through its own account.
        if (shownIn !== ids[0]) {
          expect((await call('GET', `/user?email=deep@acme.test&accountId=${shownIn}`, ops)).statusCode).toBe(200);
        }
      }
      const edit = await call('PUT', '/user', admin, { email: 'deep@acme.test', props: { lastName: 'Deeper' } });
      expect(edit.statusCode).toBe(200);
      expect((await userRow('deep@acme.test')).last_name).toBe('Deeper');
    });

    it('still answers 404 for an account whose tree does not hold the user, or one out of scope', async () => {
      const admin = await signIn(t.app, 'admin@fieldlink.test');
      const cellar = await groupOf(brew, 'Cellar');
      expect(
        (await call('GET', `/user?email=viewer@fieldlink.test&accountId=${cellar.accountId}`, admin)).statusCode,
      ).toBe(404);
      const top = (await tree(admin)).accounts[0]!;
      // ops@ works in Acme: naming the supplier's account does not widen its scope.
      expect((await call('GET', `/user?email=admin@fieldlink.test&accountId=${top.id}`, ops)).statusCode).toBe(404);
    });
  });
});
