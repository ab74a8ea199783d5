import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import type { SelfAnswer } from '@fieldlink/api/session';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

const kindsOf = (node: GroupNode): string[] => [node.kind, ...node.groups.flatMap(kindsOf)];

describe.each(DIALECTS)('the account tree carries each account’s variant on %s', (dialect) => {
  let t: TestApp;

  const call = (method: 'GET' | 'PUT', url: string, authorization: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, ...(payload && { payload }) });
  const tree = async (email: string) =>
    (await call('GET', '/account', await signIn(t.app, email))).json() as AccountAnswer;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it.each([
    ['brew@fieldlink.test', 'brew', 'customer', '5', null],
    ['spray@fieldlink.test', 'spray', 'customer', '5', 'mosnix'],
    ['stock@fieldlink.test', 'stock', 'customer', '2', 'bp'],
    ['water@fieldlink.test', 'filtec', 'customer', '5', 'filtec'],
    ['moe@fieldlink.test', 'filtec moe', 'customer', '5', 'filtec'],
    ['viewer@fieldlink.test', 'default', 'customer', '5', null],
    ['admin@fieldlink.test', 'default', 'supplier', null, null],
  ])('%s: app type %s, kind %s, user variant %j, theme %j', async (email, appType, kind, userVariant, theme) => {
    const [account] = (await tree(email)).accounts;
    expect(account).toMatchObject({ appType, kind, userVariant, theme });
    // Variant "2" names its new-devices group "New Stock".
    const placeholder = account!.rootGroup.groups.find((group) => group.kind === 'new');
    expect(placeholder?.name).toBe(userVariant === '2' ? 'New Stock' : 'New Devices');
  });

  // Issue 42 item 1: core §3 group `expanded`, the tree's first view: the top group open, the rest closed.
  it.each(['admin@fieldlink.test', 'ops@fieldlink.test'])(
    '%s: each tree opens on its top group, in the plain and the compact form',
    async (email) => {
      const token = await signIn(t.app, email);
      const expandedOf = (node: GroupNode): boolean[] => [node.expanded, ...node.groups.flatMap(expandedOf)];
      const plain = (await call('GET', '/account', token)).json() as AccountAnswer;
      const compact = (await call('GET', '/account?format=columns', token)).json() as {
        accounts: { rootGroup: GroupNode }[];
      };
      for (const answer of [plain, compact]) {
        for (const { rootGroup } of answer.accounts) {
          const [top, ...below] = expandedOf(rootGroup);
          expect(top).toBe(true);
          expect(below.length).toBeGreaterThan(0);
          expect(below.every((expanded) => expanded === false)).toBe(true);
        }
      }
    },
  );

  it('hides the New Devices and Trash groups, and what they hold, from an investor account only', async () => {
    const ops = await signIn(t.app, 'ops@fieldlink.test');
    const before = (await call('GET', '/account', ops)).json() as AccountAnswer;
    expect(kindsOf(before.accounts[0]!.rootGroup)).toEqual(expect.arrayContaining(['new', 'trash']));
    const accountId = before.accounts[0]!.id;

    await t.app.storage.db.updateTable('accounts').set({ kind: 'investor' }).where('id', '=', accountId).execute();
    try {
      const after = (await call('GET', '/account', ops)).json() as AccountAnswer;
      expect(after.accounts[0]!.kind).toBe('investor');
      expect(kindsOf(after.accounts[0]!.rootGroup)).not.toContain('new');
      expect(kindsOf(after.accounts[0]!.rootGroup)).not.toContain('trash');
      expect(kindsOf(after.accounts[0]!.rootGroup)).toContain('group');
      // The supplier above still sees the investor's placeholder groups in its own tree.
      const supplier = await tree('admin@fieldlink.test');
      expect(kindsOf(supplier.accounts[0]!.rootGroup).filter((kind) => kind === 'trash').length).toBeGreaterThan(1);
    } finally {
      await t.app.storage.db.updateTable('accounts').set({ kind: 'customer' }).where('id', '=', accountId).execute();
    }
  });

  it('carries each water plant’s configuration tag, the one that picks its generated dashboard', async () => {
    const water = await signIn(t.app, 'water@fieldlink.test');
    const plants = () =>
      tree('water@fieldlink.test').then((answer) =>
        answer.accounts[0]!.rootGroup.groups.flatMap((group) => group.devices),
      );
    const lakeside = (await plants()).find((device) => device.thingName === 'FTW-PLANT01')!;
    expect(lakeside.tags).toEqual([
      {
        key: 'filtecConfig',
        value: 'waterTank,flowmeter2,borePressure,preTreatment,media,carbon,chlorination,uvOutletSolenoid',
      },
    ]);
    expect((await plants()).find((device) => device.thingName === 'FTW-TANK01')!.tags).toEqual([]);
    const moe = (await tree('moe@fieldlink.test')).accounts[0]!.rootGroup.groups.flatMap((group) => group.devices);
    expect(moe.find((device) => device.thingName === 'MTW-PLANT02')!.tags).toEqual([
      { key: 'filtecMoeConfig', value: 'waterTank,media,greensand' },
    ]);

    // A changed tag is in the next tree read: the console's landing and dashboard follow it.
    const device = (await call('GET', `/device?id=${lakeside.id}`, water)).json() as {
      tags: { id: string; key: string }[];
    };
    const tagId = device.tags.find((tag) => tag.key === 'filtecConfig')!.id;
    const put = await call('PUT', '/device/tag', water, {
      deviceId: lakeside.id,
      tagId,
      key: 'filtecConfig',
      value: 'waterTank,softener',
    });
    expect(put.statusCode).toBe(200);
    try {
      expect((await plants()).find((device) => device.thingName === 'FTW-PLANT01')!.tags).toEqual([
        { key: 'filtecConfig', value: 'waterTank,softener' },
      ]);
    } finally {
      await call('PUT', '/device/tag', water, {
        deviceId: lakeside.id,
        tagId,
        key: 'filtecConfig',
        value: lakeside.tags![0]!.value,
      });
    }
  });

  it('keeps the user’s chosen theme on the server, so it follows them to another browser', async () => {
    const moe = await signIn(t.app, 'moe@fieldlink.test');
    const put = await call('PUT', '/user', moe, { email: 'moe@fieldlink.test', props: { theme: 'filtec' } });
    expect(put.statusCode).toBe(200);
    const elsewhere = await signIn(t.app, 'moe@fieldlink.test');
    expect(((await call('GET', '/self', elsewhere)).json() as SelfAnswer).theme).toBe('filtec');
    const refused = await call('PUT', '/user', moe, { email: 'moe@fieldlink.test', props: { theme: 'neon' } });
    expect(refused.statusCode).toBe(400);
    expect(((await call('GET', '/self', elsewhere)).json() as SelfAnswer).theme).toBe('filtec');
  });
});
