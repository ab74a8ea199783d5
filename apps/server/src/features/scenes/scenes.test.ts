import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import type { GridItem, PutWidgetBody, Scene, Widget } from '@fieldlink/api/scenes';
import { scenePath, widgetPath } from '@fieldlink/domain/group-path';
import { GRID_BREAKPOINTS, GRID_MIN_H, READ_ONLY_SCENE_MESSAGE, isSceneReadOnly } from '@fieldlink/domain/widgets';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

type Method = 'POST' | 'PUT' | 'DELETE' | 'GET';

describe.each(DIALECTS)('scenes and widgets on %s', (dialect) => {
  let t: TestApp;
  let spray: string;
  let viewer: string;
  let brew: string;
  let stock: string;
  let admin: string;
  /** Orchard Spray Co: its root group, a device, and the scene the tests build. */
  let sprayRoot: GroupNode;
  let sprayDeviceId: string;
  let acmeRoot: GroupNode;
  let acmeDeviceId: string;
  let scene: Scene;

  const db = () => t.app.storage.db;
  const call = (method: Method, url: string, authorization: string, payload?: object, query?: Record<string, string>) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, query, ...(payload && { payload }) });
  const tree = async (authorization: string) => (await call('GET', '/account', authorization)).json() as AccountAnswer;
  const scenesOf = async (authorization: string, root: { accountId: string; id: string }) =>
    (
      await call('GET', '/scenes', authorization, undefined, { accountId: root.accountId, groupId: root.id })
    ).json() as Scene[];
  /** Every scene and widget row, as text: a refused call must leave it as it was. */
  const storedScenes = async () =>
    JSON.stringify([
      await db().selectFrom('scenes').selectAll().orderBy('id').execute(),
      await db().selectFrom('widgets').selectAll().orderBy('id').execute(),
    ]);
  const widgetBody = (target: Scene, fields: Partial<PutWidgetBody['widget']> = {}): PutWidgetBody => ({
    widget: {
      accountId: target.accountId,
      groupId: target.groupId,
      sceneId: target.id,
      type: 'value',
      name: 'Tank level',
      doesInheritName: false,
      channels: [{ deviceId: sprayDeviceId, code: 'a16' }],
      arcSegments: [],
      min: 0,
      max: 100,
      switchColors: false,
      activeColor: 'red',
      inactiveColor: 'grey',
      annotations: [],
      yAxis: [],
      ...fields,
    },
  });
  const lgItem = (layout: Scene['gridLayout'], id: string) => layout.lg?.find((item) => item.i === id);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    [spray, viewer, brew, stock, admin] = (await Promise.all(
      ['spray', 'viewer', 'brew', 'stock', 'admin'].map((name) => signIn(t.app, `${name}@fieldlink.test`)),
    )) as [string, string, string, string, string];
    sprayRoot = (await tree(spray)).accounts[0]!.rootGroup;
    sprayDeviceId = sprayRoot.groups.find((group) => group.name === 'North Block')!.devices[0]!.id;
    acmeRoot = (await tree(viewer)).accounts[0]!.rootGroup;
    acmeDeviceId = acmeRoot.groups.find((group) => group.name === 'Boiler Room')!.devices[0]!.id;
  });
  afterAll(() => t?.close());

  it('seeds dashboards for every customer account, built from its own devices, shown in the tree', async () => {
    const customers = (await tree(admin)).accounts[0]!.rootGroup.groups.find((group) => group.name === 'Customers')!;
    expect(customers.groups.length).toBeGreaterThanOrEqual(6);
    for (const root of customers.groups) {
      expect(root.scenes.length, root.name).toBeGreaterThanOrEqual(1);
      const scenes = await scenesOf(admin, root);
      expect(scenes.map(({ id, name }) => ({ id, name }))).toEqual(root.scenes);
      const deviceIds = new Set<string>();
      const collect = (node: GroupNode) => {
        node.deviceIds.forEach((id) => deviceIds.add(id));
        node.groups.forEach(collect);
      };
      collect(root);
      for (const seeded of scenes) {
        expect(seeded.widgets.length, seeded.name).toBeGreaterThanOrEqual(4);
        expect(new Set(seeded.widgets.map((widget) => widget.type)).size).toBeGreaterThanOrEqual(3);
        for (const widget of seeded.widgets) {
          widget.channels.forEach((channel) => expect(deviceIds.has(channel.deviceId), widget.name).toBe(true));
        }
        for (const breakpoint of GRID_BREAKPOINTS) {
          expect(seeded.gridLayout[breakpoint]!.map((item) => item.i).sort()).toEqual(
            seeded.widgets.map((widget) => widget.id).sort(),
          );
        }
      }
      // Read-only by the account (§4: brew and stock app types, demo and investor accounts) for everyone.
      const account = await t.app.storage.db
        .selectFrom('accounts')
        .select(['app_type as appType', 'kind'])
        .where('id', '=', root.accountId)
        .executeTakeFirstOrThrow();
      expect(
        scenes.every((seeded) => seeded.readOnly === isSceneReadOnly(account)),
        root.name,
      ).toBe(true);
    }
  });

  it('adds a scene at the end of the group’s scenes, with a tidied name and an empty grid', async () => {
    const before = await scenesOf(spray, sprayRoot);
    const response = await call('POST', '/scene', spray, {
      scene: { name: '  Block   test ', accountId: sprayRoot.accountId, groupId: sprayRoot.id },
    });
    expect(response.statusCode).toBe(200);
    scene = response.json();
    expect(scene).toMatchObject({
      name: 'Block test',
      type: 'grid',
      index: before.length,
      accountId: sprayRoot.accountId,
      groupId: sprayRoot.id,
      path: scenePath(sprayRoot.id, scene.id),
      isGridLocked: false,
      widgets: [],
      appType: 'spray',
      readOnly: false,
    });
    expect(Object.keys(scene.gridLayout).sort()).toEqual([...GRID_BREAKPOINTS].sort());
    expect((await scenesOf(spray, sprayRoot)).map((s) => s.id)).toEqual([...before.map((s) => s.id), scene.id]);
    const root = (await tree(spray)).accounts[0]!.rootGroup;
    expect(root.scenes.at(-1)).toEqual({ id: scene.id, name: 'Block test' });
  });

  it('adds widgets, placing each on every breakpoint in the first place that fits; a chart is named Chart', async () => {
    const first = await call('PUT', '/widget', spray, widgetBody(scene));
    expect(first.statusCode).toBe(200);
    const value: Widget = first.json();
    expect(value).toMatchObject({
      name: 'Tank level',
      type: 'value',
      groupId: sprayRoot.id,
      sceneId: scene.id,
      path: widgetPath(sprayRoot.id, scene.id, value.id),
      channels: [{ deviceId: sprayDeviceId, code: 'a16' }],
    });
    const chart: Widget = (
      await call('PUT', '/widget', spray, widgetBody(scene, { type: 'chart', name: ' ', channels: [] }))
    ).json();
    expect(chart.name).toBe('Chart');
    // §3 `size`: each widget carries its own, its type's default when none is given (§9).
    expect([value.size, chart.size]).toEqual([
      { w: 2, h: 4 },
      { w: 6, h: 12 },
    ]);
    const stored = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
    expect(stored.widgets.map((widget) => widget.id)).toEqual([value.id, chart.id]);
    expect(lgItem(stored.gridLayout, value.id)).toMatchObject({ x: 0, y: 0, w: 2, h: 4, minH: GRID_MIN_H });
    // Beside the first widget on lg; below it on xxs, whose two columns it fills.
    expect(lgItem(stored.gridLayout, chart.id)).toMatchObject({ x: 2, y: 0, w: 6, h: 12 });
    expect(stored.gridLayout.xxs!.find((item) => item.i === chart.id)).toMatchObject({ x: 0, y: 4, w: 2, h: 12 });
    scene = stored;
  });

  it('places a widget given its own size at that size, scaled on every breakpoint (§3 size)', async () => {
    const added = await call('PUT', '/widget', spray, widgetBody(scene, { name: 'Big gauge', size: { w: 4, h: 6 } }));
    expect(added.statusCode, added.body).toBe(200);
    const big: Widget = added.json();
    expect(big.size).toEqual({ w: 4, h: 6 });
    const stored = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
    expect(lgItem(stored.gridLayout, big.id)).toMatchObject({ w: 4, h: 6 });
    expect(stored.gridLayout.sm!.find((item) => item.i === big.id)).toMatchObject({ w: 2, h: 6 });
    expect(stored.widgets.find((widget) => widget.id === big.id)?.size).toEqual({ w: 4, h: 6 });
    const refused = await call('PUT', '/widget', spray, widgetBody(scene, { size: { w: 13, h: 6 } }));
    expect(refused.statusCode).toBe(400);
    const removed = await call('DELETE', '/widget', spray, { accountId: sprayRoot.accountId, path: big.path });
    expect(removed.statusCode).toBe(200);
  });

  it('places every widget of concurrent adds (the layout is changed by compare-and-set)', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => call('PUT', '/widget', spray, widgetBody(scene, { name: `Gauge ${n}` }))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const row = await db()
      .selectFrom('scenes')
      .select('grid_layout')
      .where('id', '=', scene.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(row.grid_layout) as Record<string, GridItem[]>;
    for (const answer of answers) {
      const id = (answer.json() as Widget).id;
      for (const breakpoint of GRID_BREAKPOINTS) expect(stored[breakpoint]!.some((item) => item.i === id)).toBe(true);
    }
    scene = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
  });

  it('replaces a widget with an id; its place stays', async () => {
    const widget = scene.widgets[0]!;
    const response = await call(
      'PUT',
      '/widget',
      spray,
      widgetBody(scene, { id: widget.id, type: 'radial', name: 'Tank', min: 0, max: 400, units: 'L' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: widget.id, type: 'radial', name: 'Tank', max: 400, units: 'L' });
    const after = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
    expect(after.widgets.find((w) => w.id === widget.id)).toMatchObject({ type: 'radial', max: 400 });
    expect(after.gridLayout).toEqual(scene.gridLayout);
    scene = after;
  });

  it('keeps a control widget’s "no confirmation" mark; a widget without it confirms (issue 36)', async () => {
    const added = await call(
      'PUT',
      '/widget',
      spray,
      widgetBody(scene, { type: 'switch', name: 'Safe relay', channels: [{ deviceId: sprayDeviceId, code: 'do2' }] }),
    );
    expect(added.statusCode).toBe(200);
    const id = (added.json() as Widget).id;
    expect((added.json() as Widget).noConfirmation).toBeUndefined();
    const marked = await call(
      'PUT',
      '/widget',
      spray,
      widgetBody(scene, {
        id,
        type: 'switch',
        name: 'Safe relay',
        channels: [{ deviceId: sprayDeviceId, code: 'do2' }],
        noConfirmation: true,
      }),
    );
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ id, noConfirmation: true });
    const stored = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
    expect(stored.widgets.find((w) => w.id === id)).toMatchObject({ noConfirmation: true });
    // Not a boolean: refused, and the mark stays.
    const before = await storedScenes();
    const bad = await call('PUT', '/widget', spray, {
      widget: { ...widgetBody(scene, { id, type: 'switch' }).widget, noConfirmation: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(await storedScenes()).toBe(before);
    await call('DELETE', '/widget', spray, {
      accountId: scene.accountId,
      path: widgetPath(scene.groupId, scene.id, id),
    });
    scene = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
  });

  it('saves a grid layout normalised: minimum size, inside the columns, known widgets once', async () => {
    const [a, b] = scene.widgets;
    const response = await call('POST', '/gridlayout', spray, {
      accountId: scene.accountId,
      path: scene.path,
      gridLayout: {
        lg: [
          { i: a!.id, x: 11, y: 0, w: 4, h: 1, static: true },
          { i: b!.id, x: 0, y: 6, w: 1, h: 8 },
          { i: a!.id, x: 0, y: 20, w: 2, h: 4 },
          { i: 'no-such-widget', x: 0, y: 0, w: 2, h: 4 },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json() as { path: string; gridLayout: Scene['gridLayout'] };
    expect(answer.path).toBe(scene.path);
    expect(lgItem(answer.gridLayout, a!.id)).toEqual({
      i: a!.id,
      x: 8,
      y: 0,
      w: 4,
      h: GRID_MIN_H,
      minH: GRID_MIN_H,
      minW: 2,
      static: false,
      moved: false,
    });
    expect(lgItem(answer.gridLayout, b!.id)).toMatchObject({ x: 0, y: 6, w: 2, h: 8 });
    expect(answer.gridLayout.lg!.map((item) => item.i)).not.toContain('no-such-widget');
    // Widgets the saved breakpoint left out are placed below; breakpoints not sent keep their layout.
    expect(answer.gridLayout.lg).toHaveLength(scene.widgets.length);
    expect(answer.gridLayout.md).toEqual(scene.gridLayout.md);
    const stored = (await scenesOf(spray, sprayRoot)).find((s) => s.id === scene.id)!;
    expect(stored.gridLayout).toEqual(answer.gridLayout);
    scene = stored;
  });

  it('renames and locks a scene; a locked grid is not rearranged; unlocking allows it again', async () => {
    const renamed = await call('PUT', '/scene', spray, {
      accountId: scene.accountId,
      path: scene.path,
      props: { name: 'Block A', isGridLocked: true },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: scene.id, name: 'Block A', isGridLocked: true });
    const before = await storedScenes();
    const layout = { accountId: scene.accountId, path: scene.path, gridLayout: { lg: [] } };
    const refused = await call('POST', '/gridlayout', spray, layout);
    expect([refused.statusCode, refused.json().message]).toEqual([
      409,
      'The dashboard is locked. Unlock it to move widgets.',
    ]);
    expect(await storedScenes()).toBe(before);
    const unlock = { accountId: scene.accountId, path: scene.path, props: { isGridLocked: false } };
    expect((await call('PUT', '/scene', spray, unlock)).statusCode).toBe(200);
    expect((await call('POST', '/gridlayout', spray, layout)).statusCode).toBe(200);
  });

  it('orders scenes by the ids given; a stale or repeated list is refused and changes nothing', async () => {
    const ids = (await scenesOf(spray, sprayRoot)).map((s) => s.id);
    const reversed = [...ids].reverse();
    const base = { accountId: sprayRoot.accountId, groupId: sprayRoot.id };
    const response = await call('PUT', '/scenes/order', spray, { ...base, sceneIds: reversed });
    expect([response.statusCode, response.json()]).toEqual([200, { sceneIds: reversed }]);
    const ordered = await scenesOf(spray, sprayRoot);
    expect(ordered.map((s) => s.id)).toEqual(reversed);
    expect(ordered.map((s) => s.index)).toEqual(ordered.map((_s, index) => index));
    expect((await tree(spray)).accounts[0]!.rootGroup.scenes.map((s) => s.id)).toEqual(reversed);

    const before = await storedScenes();
    for (const [sceneIds, status] of [
      [reversed.slice(1), 409],
      [[...reversed, 'unknown-scene'], 409],
      [[reversed[0]!, reversed[0]!, ...reversed.slice(2)], 400],
    ] as const) {
      const refused = await call('PUT', '/scenes/order', spray, { ...base, sceneIds });
      expect(refused.statusCode).toBe(status);
    }
    expect(await storedScenes()).toBe(before);
  });

  it.each<[string, Method, string, (s: Scene) => object, number, string | RegExp]>([
    [
      'a widget whose minimum is not below its maximum',
      'PUT',
      '/widget',
      (s) => widgetBody(s, { min: 5, max: 5 }),
      400,
      'The minimum must be less than the maximum.',
    ],
    ['a widget of an unknown type', 'PUT', '/widget', (s) => widgetBody(s, { type: 'teapot' as never }), 400, /type/],
    [
      'a widget with a field the caller must not set',
      'PUT',
      '/widget',
      (s) => ({ widget: { ...widgetBody(s).widget, path: 'x' } }),
      400,
      /additional/,
    ],
    [
      'an unknown widget id',
      'PUT',
      '/widget',
      (s) => widgetBody(s, { id: 'no-such-widget' }),
      404,
      'Widget not found.',
    ],
    [
      'a malformed path',
      'PUT',
      '/scene',
      (s) => ({ accountId: s.accountId, path: 'nonsense', props: { name: 'X' } }),
      400,
      'Not a scene or widget path.',
    ],
    [
      'a widget path where a scene is meant',
      'DELETE',
      '/scene',
      (s) => ({ accountId: s.accountId, path: s.widgets[0]!.path }),
      400,
      'Expected the path of a scene.',
    ],
    [
      'a scene path where a widget is meant',
      'DELETE',
      '/widget',
      (s) => ({ accountId: s.accountId, path: s.path }),
      400,
      'Expected the path of a widget.',
    ],
    ['empty props', 'PUT', '/scene', (s) => ({ accountId: s.accountId, path: s.path, props: {} }), 400, /props/],
    [
      'a scene in New Devices',
      'POST',
      '/scene',
      (s) => ({
        scene: { name: 'X', accountId: s.accountId, groupId: sprayRoot.groups.find((g) => g.kind === 'new')!.id },
      }),
      400,
      'New Devices and Trash hold devices only, not dashboards.',
    ],
    [
      'a grid item wider than any grid',
      'POST',
      '/gridlayout',
      (s) => ({ accountId: s.accountId, path: s.path, gridLayout: { lg: [{ i: 'a', x: 0, y: 0, w: 13, h: 4 }] } }),
      400,
      /w/,
    ],
  ])('refuses %s and changes nothing', async (_label, method, url, body, status, message) => {
    const before = await storedScenes();
    const response = await call(method, url, spray, body(scene));
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toMatch(message);
    expect(await storedScenes()).toBe(before);
  });

  it('refuses another account’s groups, scenes and devices like missing ones, and changes nothing', async () => {
    const before = await storedScenes();
    const acmeScene = (await scenesOf(viewer, acmeRoot))[0]!;
    const attempts: [Method, string, object | undefined, Record<string, string> | undefined, string][] = [
      ['GET', '/scenes', undefined, { accountId: acmeRoot.accountId, groupId: acmeRoot.id }, 'Group not found.'],
      ['GET', '/scenes', undefined, { accountId: acmeRoot.accountId, groupId: sprayRoot.id }, 'Group not found.'],
      [
        'POST',
        '/scene',
        { scene: { name: 'X', accountId: acmeRoot.accountId, groupId: acmeRoot.id } },
        undefined,
        'Group not found.',
      ],
      [
        'PUT',
        '/scene',
        { accountId: acmeRoot.accountId, path: acmeScene.path, props: { name: 'X' } },
        undefined,
        'Scene not found.',
      ],
      [
        'PUT',
        '/scene',
        { accountId: sprayRoot.accountId, path: scenePath(sprayRoot.id, acmeScene.id), props: { name: 'X' } },
        undefined,
        'Scene not found.',
      ],
      ['DELETE', '/scene', { accountId: acmeRoot.accountId, path: acmeScene.path }, undefined, 'Scene not found.'],
      [
        'DELETE',
        '/widget',
        { accountId: acmeRoot.accountId, path: acmeScene.widgets[0]!.path },
        undefined,
        'Scene not found.',
      ],
      [
        'DELETE',
        '/widget',
        { accountId: scene.accountId, path: widgetPath(scene.groupId, scene.id, acmeScene.widgets[0]!.id) },
        undefined,
        'Widget not found.',
      ],
      [
        'POST',
        '/gridlayout',
        { accountId: acmeRoot.accountId, path: acmeScene.path, gridLayout: { lg: [] } },
        undefined,
        'Scene not found.',
      ],
      [
        'PUT',
        '/scenes/order',
        { accountId: acmeRoot.accountId, groupId: acmeRoot.id, sceneIds: [acmeScene.id] },
        undefined,
        'Group not found.',
      ],
      ['PUT', '/widget', widgetBody(acmeScene), undefined, 'Scene not found.'],
      [
        'PUT',
        '/widget',
        widgetBody(scene, { channels: [{ deviceId: acmeDeviceId, code: 'c1' }] }),
        undefined,
        'Device not found.',
      ],
      [
        'PUT',
        '/widget',
        widgetBody(scene, {
          type: 'chart',
          channels: [],
          yAxis: [{ channels: [`${acmeDeviceId}:c1`], name: 'T', units: 'C', isDedicated: false, hasFixRange: false }],
        }),
        undefined,
        'Device not found.',
      ],
      ['PUT', '/widget', widgetBody(scene, { id: acmeScene.widgets[0]!.id }), undefined, 'Widget not found.'],
    ];
    for (const [method, url, payload, query, message] of attempts) {
      const response = await call(method, url, spray, payload, query);
      expect([url, response.statusCode, response.json().message]).toEqual([url, 404, message]);
    }
    expect(await storedScenes()).toBe(before);
  });

  it('needs VIEW_DASH to read and the scene or widget permission to change; refusals change nothing', async () => {
    const acmeScenes = await scenesOf(viewer, acmeRoot);
    expect(acmeScenes.length).toBeGreaterThan(0);
    expect(acmeScenes.every((s) => s.readOnly)).toBe(true);
    const stockRoot = (await tree(stock)).accounts[0]!.rootGroup;
    const blind = await call('GET', '/scenes', stock, undefined, {
      accountId: stockRoot.accountId,
      groupId: stockRoot.id,
    });
    expect(blind.statusCode).toBe(403);
    const before = await storedScenes();
    const target = acmeScenes[0]!;
    for (const [method, url, payload] of [
      ['POST', '/scene', { scene: { name: 'X', accountId: acmeRoot.accountId, groupId: acmeRoot.id } }],
      ['PUT', '/scene', { accountId: target.accountId, path: target.path, props: { isGridLocked: true } }],
      ['DELETE', '/scene', { accountId: target.accountId, path: target.path }],
      [
        'PUT',
        '/scenes/order',
        { accountId: target.accountId, groupId: target.groupId, sceneIds: acmeScenes.map((s) => s.id) },
      ],
      ['POST', '/gridlayout', { accountId: target.accountId, path: target.path, gridLayout: { lg: [] } }],
      ['PUT', '/widget', widgetBody(target, { channels: [{ deviceId: acmeDeviceId, code: 'c1' }] })],
      ['DELETE', '/widget', { accountId: target.accountId, path: target.widgets[0]!.path }],
    ] as [Method, string, object][]) {
      const response = await call(method, url, viewer, payload);
      expect([url, response.statusCode]).toEqual([url, 403]);
    }
    expect(await storedScenes()).toBe(before);
  });

  it('keeps the brewing and inventory accounts’ scenes read-only, even for their administrators', async () => {
    const brewRoot = (await tree(brew)).accounts[0]!.rootGroup;
    const brewScenes = await scenesOf(brew, brewRoot);
    expect(brewScenes.length).toBeGreaterThan(0);
    expect(brewScenes.every((s) => s.readOnly && s.appType === 'brew')).toBe(true);
    const target = brewScenes[0]!;
    const before = await storedScenes();
    for (const [method, url, payload] of [
      ['POST', '/scene', { scene: { name: 'X', accountId: brewRoot.accountId, groupId: brewRoot.id } }],
      ['PUT', '/scene', { accountId: target.accountId, path: target.path, props: { name: 'Mine' } }],
      ['DELETE', '/scene', { accountId: target.accountId, path: target.path }],
      ['PUT', '/scenes/order', { accountId: target.accountId, groupId: target.groupId, sceneIds: [target.id] }],
      ['POST', '/gridlayout', { accountId: target.accountId, path: target.path, gridLayout: { lg: [] } }],
      ['PUT', '/widget', { widget: { ...widgetBody(target).widget, channels: [] } }],
      ['DELETE', '/widget', { accountId: target.accountId, path: target.widgets[0]!.path }],
    ] as [Method, string, object][]) {
      const response = await call(method, url, brew, payload);
      expect([url, response.statusCode, response.json().message]).toEqual([url, 403, READ_ONLY_SCENE_MESSAGE]);
    }
    expect(await storedScenes()).toBe(before);
  });

  it('refuses every change to a demo account’s scenes, administrators included', async () => {
    const brewRoot = (await tree(brew)).accounts[0]!.rootGroup;
    const [target] = await scenesOf(brew, brewRoot);
    // The brewing account turned into a demo account (kind `demo`, core §1 and §6) for this test.
    const setKind = (kind: string) =>
      db().updateTable('accounts').set({ kind }).where('id', '=', brewRoot.accountId).execute();
    await setKind('demo');
    try {
      const demoRoot = (await tree(brew)).accounts[0]!.rootGroup;
      expect((await tree(brew)).accounts[0]!.kind).toBe('demo');
      const before = await storedScenes();
      for (const [authorization, method, url, payload] of [
        [brew, 'PUT', '/scene', { accountId: target!.accountId, path: target!.path, props: { name: 'Mine' } }],
        [admin, 'PUT', '/scene', { accountId: target!.accountId, path: target!.path, props: { isGridLocked: false } }],
        [admin, 'DELETE', '/widget', { accountId: target!.accountId, path: target!.widgets[0]!.path }],
        [admin, 'POST', '/scene', { scene: { name: 'X', accountId: demoRoot.accountId, groupId: demoRoot.id } }],
      ] as [string, Method, string, object][]) {
        const response = await call(method, url, authorization, payload);
        expect([url, response.statusCode, response.json().message]).toEqual([url, 403, READ_ONLY_SCENE_MESSAGE]);
      }
      expect(await storedScenes()).toBe(before);
    } finally {
      await setKind('customer');
    }
  });

  it('deletes a widget and its place on every breakpoint', async () => {
    const widget = scene.widgets[1]!;
    const response = await call('DELETE', '/widget', spray, { accountId: scene.accountId, path: widget.path });
    expect([response.statusCode, response.json()]).toEqual([200, { path: widget.path }]);
    expect(
      await db().selectFrom('widgets').select('id').where('id', '=', widget.id).executeTakeFirst(),
    ).toBeUndefined();
    const row = await db()
      .selectFrom('scenes')
      .select('grid_layout')
      .where('id', '=', scene.id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(row.grid_layout) as Record<string, GridItem[]>;
    for (const breakpoint of GRID_BREAKPOINTS)
      expect(stored[breakpoint]!.some((item) => item.i === widget.id)).toBe(false);
  });

  it('deletes a scene with its widgets', async () => {
    const response = await call('DELETE', '/scene', spray, { accountId: scene.accountId, path: scene.path });
    expect([response.statusCode, response.json()]).toEqual([200, { path: scene.path }]);
    expect(await db().selectFrom('scenes').select('id').where('id', '=', scene.id).executeTakeFirst()).toBeUndefined();
    expect(await db().selectFrom('widgets').select('id').where('scene_id', '=', scene.id).execute()).toEqual([]);
    expect((await scenesOf(spray, sprayRoot)).map((s) => s.id)).not.toContain(scene.id);
  });

  it('deletes a group’s scenes and widgets with the group', async () => {
    const group = (
      await call('POST', '/group', spray, { parentId: sprayRoot.id, name: 'Short-lived block' })
    ).json() as { id: string };
    const added = (
      await call('POST', '/scene', spray, {
        scene: { name: 'Doomed', accountId: sprayRoot.accountId, groupId: group.id },
      })
    ).json() as Scene;
    const widget = (await call('PUT', '/widget', spray, widgetBody(added))).json() as Widget;
    expect((await call('DELETE', '/group', spray, { id: group.id })).statusCode).toBe(200);
    expect(await db().selectFrom('scenes').select('id').where('id', '=', added.id).executeTakeFirst()).toBeUndefined();
    expect(
      await db().selectFrom('widgets').select('id').where('id', '=', widget.id).executeTakeFirst(),
    ).toBeUndefined();
    // Other scenes of the account are untouched.
    expect((await scenesOf(spray, sprayRoot)).length).toBeGreaterThan(0);
  });
});
