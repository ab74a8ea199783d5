import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import type { Device } from '@fieldlink/api/device';
import type { OtaPendingAnswer, OtaRolloutsAnswer, OtaSubmitAnswer } from '@fieldlink/api/ota';
import { REALTIME_PATH, type ServerActionOf } from '@fieldlink/api/realtime';
import { withClusterTables } from '../../cluster/cluster-tables';
import { demoFleet } from '../../seed/seed';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { connectTestDevice } from '../../../testing/test-device';
import { TestSocket } from '../../../testing/test-socket';
import { until } from '../../../testing/until';

/** What a test device does with an update: all of it, fail it, refuse it, or take it and report nothing. */
type Behaviour = 'succeed' | 'fail' | 'refuse' | 'accept';
type OtaEvent = ServerActionOf<'server/otaProgress'>;

const RELOAD_DELAY_MS = 400;

describe.each(DIALECTS)('OTA updates on %s', (dialect) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  let passwords: Map<string, string>;
  const clients: MqttClient[] = [];
  const events: OtaEvent[] = [];

  const db = () => t.app.storage.db;
  const call = (method: 'GET' | 'POST', url: string, who: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: tokens[who]! }, payload });
  const deviceRow = (thingName: string) =>
    db().selectFrom('devices').selectAll().where('thing_name', '=', thingName).executeTakeFirstOrThrow();
  const updatesOf = async (thingName: string) =>
    db()
      .selectFrom('ota_updates')
      .selectAll()
      .where('device_id', '=', (await deviceRow(thingName)).id)
      .orderBy('submitted_at')
      .execute();
  /**
   * Waits until every due job has run (an update goes out from one), then sends the device a command
   * of its own and waits for the answer: a device's commands leave in order (`CommandService`), so
   * whatever was sent before has reached it. What is not sent by then is not being sent.
   */
  const commandsSettled = async (thingName: string) => {
    await until(
      async () =>
        (
          await withClusterTables(db())
            .selectFrom('jobs')
            .select('id')
            .where('state', '=', 'queued')
            .where('run_at', '<=', Date.now())
            .execute()
        ).length === 0,
    );
    const marker = await t.app.commands.send(
      thingName,
      { cmd: 'readRegister', register: 1 },
      { recordedWith: 'ota.approve' },
    );
    expect(marker.result).toBe('OK');
  };
  /** Every row of the OTA tables and the devices' OTA columns, to prove a refused call changed nothing. */
  const otaSnapshot = async () =>
    JSON.stringify([
      await db().selectFrom('ota_rollouts').selectAll().orderBy('id').execute(),
      await db().selectFrom('ota_updates').selectAll().orderBy('id').execute(),
      await db().selectFrom('devices').select(['id', 'ota_pending_submitted_at', 'ota_update']).orderBy('id').execute(),
    ]);

  /**
   * A device over real MQTT. It answers `otaUpdate` OK (or FAIL for `refuse`), then reports
   * downloading, installing, rebooting and succeeded, or fails while downloading.
   */
  const connectDevice = async (thingName: string, behaviour: Behaviour, received: DeviceCommand[] = []) => {
    const { client, publish } = await connectTestDevice(
      t.app,
      thingName,
      passwords.get(thingName),
      (command, reply) => {
        received.push(command);
        void (async () => {
          const result = command.cmd === 'otaUpdate' && behaviour === 'refuse' ? 'FAIL' : 'OK';
          await reply({ v: 4, type: 'reply', id: command.id, result });
          if (command.cmd !== 'otaUpdate' || result === 'FAIL' || behaviour === 'accept') return;
          const updateId = command.updateId;
          await reply({ v: 4, type: 'ota', updateId, state: 'downloading', percent: 40 });
          if (behaviour === 'fail') {
            await reply({ v: 4, type: 'ota', updateId, state: 'failed', error: 'Checksum mismatch' });
            return;
          }
          await reply({ v: 4, type: 'ota', updateId, state: 'downloading', percent: 100 });
          await reply({ v: 4, type: 'ota', updateId, state: 'installing' });
          await reply({ v: 4, type: 'ota', updateId, state: 'rebooting' });
          await reply({ v: 4, type: 'ota', updateId, state: 'succeeded', fw: '9.9.9' });
        })();
      },
    );
    clients.push(client);
    await publish({ v: 4, type: 'conn', t: Date.now(), connected: true });
    await until(async () => (await deviceRow(thingName)).is_connected === 1);
    return received;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      mqtt: true,
      listen: true,
      commandTimeoutMs: 1500,
      ota: { reloadDelayMs: RELOAD_DELAY_MS, idleTickMs: 200 },
    });
    // ops@ (Acme Controls) may submit updates but is no administrator.
    const ops = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ops@fieldlink.test')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('attachment_points')
      .set({ secret_permissions: JSON.stringify(['OTA_UPDATE']) })
      .where('user_id', '=', ops.id)
      .execute();
    for (const who of ['ops', 'viewer', 'admin', 'brew', 'water'])
      tokens[who] = await signIn(t.app, `${who}@fieldlink.test`);
    passwords = new Map((await demoFleet(db())).map((entry) => [entry.thingName, entry.password]));
    t.app.events.on((event) => {
      if (event.type === 'server/otaProgress') events.push(event);
    });
  });
  afterAll(async () => {
    for (const client of clients) await client.endAsync(true);
    await t?.close();
  });

  it('refuses a user without OTA_UPDATE with 403 and changes nothing', async () => {
    const { id } = await deviceRow('ACME-BLR01');
    const before = await otaSnapshot();
    const response = await call('POST', '/devices/ota-submit', 'viewer', {
      deviceIds: [id],
      updateCommand: 'firmware 4.3.0',
      skipApproval: false,
    });
    expect(response.statusCode).toBe(403);
    expect(await otaSnapshot()).toBe(before);
  });

  it('validates the request with clear 400s that change nothing', async () => {
    const { id } = await deviceRow('ACME-BLR01');
    const before = await otaSnapshot();
    const cases: [object, string][] = [
      [{ deviceIds: [id], updateCommand: '   ' }, 'Enter an update command.'],
      [{ deviceIds: [id], updateCommand: 'x'.repeat(300) }, 'The update command may be at most 256 characters.'],
      [{ deviceIds: [id], updateCommand: 'a\nb' }, 'The update command may not contain control characters.'],
      [{ deviceIds: [id, id], updateCommand: 'firmware 4.3.0' }, 'Name each device once.'],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/devices/ota-submit', 'ops', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(message);
    }
    for (const body of [
      { deviceIds: [], updateCommand: 'x' },
      { deviceIds: [id] },
      { deviceIds: [id], updateCommand: 'x', extra: 1 },
    ]) {
      expect((await call('POST', '/devices/ota-submit', 'ops', body)).statusCode).toBe(400);
    }
    expect((await call('POST', '/devices/ota-approve', 'admin', { deviceIds: [] })).statusCode).toBe(400);
    expect(await otaSnapshot()).toBe(before);
  });

  it('lets only administrators skip approval; a non-admin asking is refused and nothing changes', async () => {
    const { id } = await deviceRow('ACME-BLR01');
    const before = await otaSnapshot();
    const response = await call('POST', '/devices/ota-submit', 'ops', {
      deviceIds: [id],
      updateCommand: 'firmware 4.3.0',
      skipApproval: true,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json<{ message: string }>().message).toBe('Only administrators may skip approval.');
    expect(await otaSnapshot()).toBe(before);
  });

  it('answers another account’s device exactly like a missing one, and writes nothing', async () => {
    const foreign = await deviceRow('NGB-FV01');
    const before = await otaSnapshot();
    const answers = [];
    for (const deviceId of [foreign.id, 'no-such-device']) {
      const response = await call('POST', '/devices/ota-submit', 'ops', {
        deviceIds: [deviceId],
        updateCommand: 'firmware 4.3.0',
      });
      expect(response.statusCode).toBe(200);
      answers.push(response.body);
    }
    expect(answers[0]).toBe(answers[1]);
    expect(JSON.parse(answers[0]!)).toEqual([{ error: { message: 'Device not found.' } }]);
    const approve = await call('POST', '/devices/ota-approve', 'brew', {
      deviceIds: [(await deviceRow('ACME-BLR01')).id],
    });
    expect(approve.json()).toEqual([{ error: { message: 'Device not found.' } }]);
    expect(await otaSnapshot()).toBe(before);
  });

  it('holds an update without skipApproval until an administrator approves it, then runs it to the end', async () => {
    const received = await connectDevice('ACME-BLR01', 'succeed');
    const device = await deviceRow('ACME-BLR01');
    // A browser watching the device.
    const origin = baseUrl(t.app);
    const browser = await TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, tokens.ops!, origin);
    expect((await browser.request({ type: 'server/subscribeDevices', thingNames: ['ACME-BLR01'] })).ok).toBe(true);
    const missing = 'no-such-device';
    const submitted = await call('POST', '/devices/ota-submit', 'ops', {
      deviceIds: [device.id, missing],
      updateCommand: ' firmware 9.9.9 ',
      skipApproval: false,
    });
    expect(submitted.statusCode).toBe(200);
    const items = submitted.json<OtaSubmitAnswer>();
    expect(items).toEqual([
      { deviceId: device.id, updateId: expect.any(String), state: 'AWAITING_APPROVAL' },
      { error: { message: 'Device not found.' } },
    ]);
    // Pending approval: the timestamp is set and nothing went to the device.
    const pendingRow = await deviceRow('ACME-BLR01');
    expect(pendingRow.ota_pending_submitted_at).toEqual(expect.any(Number));
    await commandsSettled('ACME-BLR01');
    expect(received.filter((command) => command.cmd === 'otaUpdate')).toEqual([]);

    // Only administrators see the pending list; the supplier's admin sees the customer's device.
    expect((await call('GET', '/devices/ota-pending', 'ops')).statusCode).toBe(403);
    const list = (await call('GET', '/devices/ota-pending', 'admin')).json<OtaPendingAnswer>();
    expect(list.devices).toEqual([
      expect.objectContaining({
        deviceId: device.id,
        thingName: 'ACME-BLR01',
        submittedBy: 'ops@fieldlink.test',
        update: expect.objectContaining({ state: 'AWAITING_APPROVAL', updateCommand: 'firmware 9.9.9' }),
      }),
    ]);
    // Another account's administrator does not see it.
    expect((await call('GET', '/devices/ota-pending', 'brew')).json<OtaPendingAnswer>().devices).toEqual([]);

    // Only administrators approve.
    expect((await call('POST', '/devices/ota-approve', 'ops', { deviceIds: [device.id] })).statusCode).toBe(403);
    const approved = await call('POST', '/devices/ota-approve', 'admin', { deviceIds: [device.id] });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual([
      { deviceId: device.id, updateId: (items[0] as { updateId: string }).updateId, state: 'QUEUED' },
    ]);
    expect((await deviceRow('ACME-BLR01')).ota_pending_submitted_at).toBeNull();

    // The device receives the command over MQTT and reports its progress to the end.
    await until(async () => (await updatesOf('ACME-BLR01')).at(-1)?.state === 'SUCCEEDED');
    const command = received.find((c) => c.cmd === 'otaUpdate');
    expect(command).toMatchObject({ cmd: 'otaUpdate', updateCommand: 'firmware 9.9.9', updateId: expect.any(String) });
    const [update] = await updatesOf('ACME-BLR01');
    expect(update).toMatchObject({ state: 'SUCCEEDED', percent: 100, fw: '9.9.9', reloaded_at: null });
    const answer = (await call('GET', `/device?id=${device.id}`, 'ops')).json<Device>();
    expect(answer.update).toMatchObject({
      state: 'SUCCEEDED',
      percent: 100,
      fw: '9.9.9',
      finishedAt: expect.any(Number),
    });
    expect(answer.otaPendingSubmittedAt).toBeNull();
    const states = events.filter((event) => event.thingName === 'ACME-BLR01').map((event) => event.update.state);
    expect(states).toEqual(
      expect.arrayContaining([
        'AWAITING_APPROVAL',
        'QUEUED',
        'SENT',
        'DOWNLOADING',
        'INSTALLING',
        'REBOOTING',
        'SUCCEEDED',
      ]),
    );
    expect(
      events
        .filter((event) => event.thingName === 'ACME-BLR01' && event.update.state === 'DOWNLOADING')
        .map((e) => e.update.percent),
    ).toEqual([40, 100]);

    // The reload comes once the delay has passed after the end: the device is asked for its config.
    const finishedAt = update!.finished_at!;
    await until(async () => (await updatesOf('ACME-BLR01'))[0]!.reloaded_at !== null);
    const reloadedAt = (await updatesOf('ACME-BLR01'))[0]!.reloaded_at!;
    expect(reloadedAt - finishedAt).toBeGreaterThanOrEqual(RELOAD_DELAY_MS);
    await until(() => received.some((c) => c.cmd === 'refreshMetadata'));
    expect(events.find((event) => event.thingName === 'ACME-BLR01' && event.reloadedAt !== undefined)).toMatchObject({
      update: { state: 'SUCCEEDED' },
      reloadedAt,
    });
    // The browser was told every step, and when to reload.
    await browser.waitFor((action) => action.type === 'server/otaProgress' && action.reloadedAt !== undefined);
    const pushed = browser.received.filter((action): action is OtaEvent => action.type === 'server/otaProgress');
    expect(pushed.map((action) => action.update.state)).toContain('SUCCEEDED');
    expect(pushed.at(-1)).toMatchObject({ deviceId: device.id, reloadedAt, otaPendingSubmittedAt: null });
    browser.socket.close();
    const rollout = await db()
      .selectFrom('ota_rollouts')
      .selectAll()
      .where('id', '=', update!.rollout_id)
      .executeTakeFirstOrThrow();
    expect(rollout).toMatchObject({ state: 'COMPLETED', dispatched: 1 });

    // Nothing is left to approve.
    expect((await call('POST', '/devices/ota-approve', 'admin', { deviceIds: [device.id] })).json()).toEqual([
      { error: { message: 'No OTA update of this device awaits approval.' } },
    ]);
  });

  // A device's frames are handled concurrently: a report at 40 % read before, and written after, the
  // one at 100 % set the download back to 40 % and told the browser so (this file, PostgreSQL, load 8).
  it('keeps a download at its furthest when two of its reports cross, and tells nobody it went back', async () => {
    await connectDevice('OSC-PUMP01', 'accept');
    const device = await deviceRow('OSC-PUMP01');
    const submitted = await call('POST', '/devices/ota-submit', 'admin', {
      deviceIds: [device.id],
      updateCommand: 'firmware 9.9.9',
      skipApproval: true,
    });
    const updateId = submitted.json<{ updateId: string }[]>()[0]!.updateId;
    await until(async () => (await updatesOf('OSC-PUMP01')).at(-1)?.state === 'SENT');
    const ref = (await t.app.directory.find('OSC-PUMP01'))!;
    const report = (percent: number) =>
      t.app.ota.report(ref, { v: 4, type: 'ota', updateId, state: 'downloading', percent });
    await report(10);
    // Both read the update at 10 % before either writes it; whichever is written first, the download
    // ends at 100 % and the browsers are told its steps in order: 10, 100, or 10, 40, 100.
    await Promise.all([report(100), report(40)]);
    expect((await updatesOf('OSC-PUMP01'))[0]).toMatchObject({ state: 'DOWNLOADING', percent: 100 });
    const told = events
      .filter((event) => event.thingName === 'OSC-PUMP01' && event.update.state === 'DOWNLOADING')
      .map((event) => event.update.percent);
    expect([
      [10, 100],
      [10, 40, 100],
    ]).toContainEqual(told);
    // Off the administrators' pending list, which the tests below read.
    expect((await call('POST', '/devices/ota-approve', 'admin', { deviceIds: [device.id] })).statusCode).toBe(200);
  });

  it('sends at once with skipApproval, keeps the pending timestamp until approved, and records a failure', async () => {
    const received = await connectDevice('ACME-BLR02', 'fail');
    const device = await deviceRow('ACME-BLR02');
    const submitted = await call('POST', '/devices/ota-submit', 'admin', {
      deviceIds: [device.id],
      updateCommand: 'firmware 9.9.9',
      skipApproval: true,
    });
    expect(submitted.json()).toEqual([{ deviceId: device.id, updateId: expect.any(String), state: 'QUEUED' }]);
    expect((await deviceRow('ACME-BLR02')).ota_pending_submitted_at).toEqual(expect.any(Number));
    await until(async () => (await updatesOf('ACME-BLR02')).at(-1)?.state === 'FAILED');
    expect(received.filter((c) => c.cmd === 'otaUpdate')).toHaveLength(1);
    expect((await updatesOf('ACME-BLR02'))[0]).toMatchObject({
      state: 'FAILED',
      error: 'Checksum mismatch',
      percent: 40,
    });
    // Sent without waiting, but the administrators' sign-off is still outstanding.
    const pending = (await call('GET', '/devices/ota-pending', 'admin')).json<OtaPendingAnswer>();
    expect(pending.devices.map((entry) => entry.thingName)).toEqual(['ACME-BLR02']);
    expect(pending.devices[0]!.update).toMatchObject({ state: 'FAILED', error: 'Checksum mismatch' });
    const approved = await call('POST', '/devices/ota-approve', 'admin', { deviceIds: [device.id] });
    expect(approved.json()).toEqual([{ deviceId: device.id, updateId: expect.any(String), state: 'FAILED' }]);
    expect((await deviceRow('ACME-BLR02')).ota_pending_submitted_at).toBeNull();
    expect((await call('GET', '/devices/ota-pending', 'admin')).json<OtaPendingAnswer>().devices).toEqual([]);
    // A failed update is reloaded too.
    await until(async () => (await updatesOf('ACME-BLR02'))[0]!.reloaded_at !== null);
  });

  // Issue 35 item 9: after a successful rollout the banner kept "pending OTA updates" and Review
  // offered Approve on devices that had already succeeded.
  it('lets a device whose update sent with skipApproval succeeded leave the pending list', async () => {
    await connectDevice('OSC-SPR03', 'succeed');
    const device = await deviceRow('OSC-SPR03');
    const submitted = await call('POST', '/devices/ota-submit', 'admin', {
      deviceIds: [device.id],
      updateCommand: 'firmware 9.9.9',
      skipApproval: true,
    });
    expect(submitted.statusCode).toBe(200);
    await until(async () => (await updatesOf('OSC-SPR03')).at(-1)?.state === 'SUCCEEDED');
    expect((await deviceRow('OSC-SPR03')).ota_pending_submitted_at).toBeNull();
    const pending = (await call('GET', '/devices/ota-pending', 'admin')).json<OtaPendingAnswer>();
    expect(pending.devices.map((entry) => entry.thingName)).not.toContain('OSC-SPR03');
    expect((await call('POST', '/devices/ota-approve', 'admin', { deviceIds: [device.id] })).json()).toEqual([
      { error: { message: 'No OTA update of this device awaits approval.' } },
    ]);
    // The browsers are told the mark is gone with the success itself.
    await until(() =>
      events.some(
        (event) =>
          event.thingName === 'OSC-SPR03' && event.update.state === 'SUCCEEDED' && event.otaPendingSubmittedAt === null,
      ),
    );
  });

  it('fails an update the device refuses, and queues one for an offline device until it connects', async () => {
    await connectDevice('ACME-COLD01', 'refuse');
    const refusing = await deviceRow('ACME-COLD01');
    const offline = await deviceRow('ACME-COLD02');
    expect(offline.is_connected).toBe(0);
    const submitted = await call('POST', '/devices/ota-submit', 'admin', {
      deviceIds: [refusing.id, offline.id],
      updateCommand: 'firmware 9.9.9',
      skipApproval: true,
      failureThresholdPercent: 100,
      // No pace to hide behind: the first step may send to both devices.
      devicesPerMinute: 6000,
    });
    expect(submitted.json<OtaSubmitAnswer>().map((item) => ('state' in item ? item.state : item))).toEqual([
      'QUEUED',
      'QUEUED',
    ]);
    await until(async () => (await updatesOf('ACME-COLD01')).at(-1)?.state === 'FAILED');
    expect((await updatesOf('ACME-COLD01')).at(-1)!.error).toBe('The device refused the update.');
    // A pacing step ran since (each hands the rollout over to the next step's job after it sent what it
    // could): the offline device was passed over, not merely not reached yet.
    const rolloutId = (await updatesOf('ACME-COLD02')).at(-1)!.rollout_id;
    const tickJob = async () =>
      (
        await db()
          .selectFrom('ota_rollouts')
          .select('tick_job_id')
          .where('id', '=', rolloutId)
          .executeTakeFirstOrThrow()
      ).tick_job_id;
    const stepBefore = await tickJob();
    await until(async () => {
      const step = await tickJob();
      return step !== stepBefore && step !== null && !step.startsWith('claim:');
    });
    // Never sent (a send to a device that is not there would count an attempt and put it back).
    expect((await updatesOf('ACME-COLD02')).at(-1)).toMatchObject({ state: 'QUEUED', attempts: 0, sent_at: null });
    // A second submission for a device whose update is not finished is refused for that device.
    expect(
      (
        await call('POST', '/devices/ota-submit', 'admin', {
          deviceIds: [offline.id],
          updateCommand: 'firmware 9.9.10',
        })
      ).json(),
    ).toEqual([{ error: { message: 'The device already has an OTA update in progress.' } }]);
    await connectDevice('ACME-COLD02', 'succeed');
    await until(async () => (await updatesOf('ACME-COLD02')).at(-1)?.state === 'SUCCEEDED');
  });

  it('names the submitter on the pending list only to administrators who can see that user', async () => {
    const { id } = await deviceRow('FTW-BORE01');
    await call('POST', '/devices/ota-submit', 'admin', { deviceIds: [id], updateCommand: 'firmware 2.0' });
    const entry = (list: OtaPendingAnswer) => list.devices.find((device) => device.deviceId === id);
    expect(entry((await call('GET', '/devices/ota-pending', 'admin')).json())?.submittedBy).toBe(
      'admin@fieldlink.test',
    );
    // Filtec's administrator sees its device pending, but not who at its supplier submitted it.
    const water = entry((await call('GET', '/devices/ota-pending', 'water')).json());
    expect(water).toMatchObject({ thingName: 'FTW-BORE01', submittedBy: null });
    expect((await call('POST', '/devices/ota-approve', 'water', { deviceIds: [id] })).json()).toEqual([
      { deviceId: id, updateId: expect.any(String), state: 'QUEUED' },
    ]);
  });

  it('paces a rollout in devices per minute and stops it at the failure threshold', async () => {
    const names = ['NGB-FV01', 'NGB-FV02', 'NGB-BT01', 'NGB-HLT01'];
    // Two devices online, both failing; the last two offline, so they wait in the queue whatever the
    // machine's speed (a loaded run once sent the third before the second's failure was in).
    for (const name of names.slice(0, 2)) await connectDevice(name, 'fail');
    for (const name of names.slice(2)) expect((await deviceRow(name)).is_connected).toBe(0);
    const ids = await Promise.all(names.map(async (name) => (await deviceRow(name)).id));
    const submitted = await call('POST', '/devices/ota-submit', 'brew', {
      deviceIds: ids,
      updateCommand: 'firmware 9.9.9',
      skipApproval: true,
      devicesPerMinute: 120,
      minExecuted: 2,
      failureThresholdPercent: 50,
    });
    expect(submitted.statusCode).toBe(200);
    const rolloutOf = async () =>
      db()
        .selectFrom('ota_rollouts')
        .selectAll()
        .where('id', '=', (await updatesOf('NGB-FV01')).at(-1)!.rollout_id)
        .executeTakeFirstOrThrow();
    await until(async () => (await rolloutOf()).state === 'STOPPED');
    const rollout = await rolloutOf();
    expect(rollout.stop_reason).toBe('Stopped after 2 of 2 devices failed.');
    const updates = await Promise.all(names.map(async (name) => (await updatesOf(name)).at(-1)!));
    // One device every 500 ms: the second went no sooner than half a second after the first.
    const sent = updates.filter((update) => update.sent_at !== null).map((update) => Number(update.sent_at));
    expect(sent).toHaveLength(2);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(450);
    expect(updates.map((update) => update.state)).toEqual(['FAILED', 'FAILED', 'CANCELLED', 'CANCELLED']);
    expect(updates[2]!.error).toMatch(/^Rollout stopped/);
    // The stopped rollout sends nothing to the devices that come online after it.
    const late = await Promise.all(names.slice(2).map((name) => connectDevice(name, 'fail')));
    for (const name of names.slice(2)) await commandsSettled(name);
    expect(late.flat().filter((command) => command.cmd === 'otaUpdate')).toEqual([]);
    expect(await Promise.all(names.map(async (name) => (await updatesOf(name)).at(-1)!.state))).toEqual([
      'FAILED',
      'FAILED',
      'CANCELLED',
      'CANCELLED',
    ]);
  });

  it('lists the rollouts with each device’s progress, to administrators, with only the devices in their scope', async () => {
    const [acme, filtec] = [await deviceRow('ACME-COLD02'), await deviceRow('FTW-TANK01')];
    const submitted = await call('POST', '/devices/ota-submit', 'admin', {
      deviceIds: [acme.id, filtec.id],
      updateCommand: 'firmware 7.1.0',
    });
    expect(submitted.statusCode).toBe(200);
    const rolloutsOf = async (who: string) =>
      (await call('GET', '/devices/ota-rollouts', who)).json<OtaRolloutsAnswer>().rollouts;

    // The supplier's administrator sees the whole rollout, newest first, each device with its state.
    const [newest, ...older] = await rolloutsOf('admin');
    expect(newest).toMatchObject({
      updateCommand: 'firmware 7.1.0',
      state: 'RUNNING',
      skipApproval: false,
      startedAt: null,
      devices: [
        { deviceId: acme.id, thingName: 'ACME-COLD02', state: 'AWAITING_APPROVAL', percent: null, error: null },
        { deviceId: filtec.id, thingName: 'FTW-TANK01', state: 'AWAITING_APPROVAL' },
      ],
    });
    // The rollout that stopped at its failure threshold is there, with its reason and its outcomes.
    const stopped = older.find((rollout) => rollout.state === 'STOPPED')!;
    expect(stopped.stopReason).toMatch(/failed/);
    expect(stopped.devices.map((device) => device.state)).toEqual(['FAILED', 'FAILED', 'CANCELLED', 'CANCELLED']);

    // Filtec's administrator sees the same rollout with its own device only, and no Northgate rollout.
    const filtecView = await rolloutsOf('water');
    expect(filtecView[0]!.devices.map((device) => device.thingName)).toEqual(['FTW-TANK01']);
    expect(
      filtecView.flatMap((rollout) => rollout.devices).every((device) => device.thingName.startsWith('FTW-')),
    ).toBe(true);
    // Northgate's administrator sees its stopped rollout whole (reason included), nothing of the others.
    const brewView = await rolloutsOf('brew');
    expect(brewView.map((rollout) => rollout.state)).toEqual(['STOPPED']);
    expect(brewView[0]!.stopReason).toBe(stopped.stopReason);
    // Not an administrator: refused.
    expect((await call('GET', '/devices/ota-rollouts', 'ops')).statusCode).toBe(403);
  });
});
