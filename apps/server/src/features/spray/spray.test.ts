import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { FastifyInstance } from 'fastify';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import type { BroadcastSprayAnswer, BroadcastSprayTooSoon } from '@fieldlink/api/spray';
import {
  BROADCAST_SPRAY_COOLDOWN_SECONDS,
  BROADCAST_SPRAY_FORBIDDEN,
  SPRAYER_CHANNELS,
  broadcastSprayWaitMessage,
  packSpraySchedule,
  sprayScheduleRegisters,
} from '@fieldlink/domain/spray';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { migrate, openStorage } from '../../db/database';
import { demoFleet } from '../../seed/seed';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { connectTestDevice } from '../../../testing/test-device';
import { until } from '../../../testing/until';

const PATH = '/api/v1/mosnix/broadcast-spray';

/** A sprayer's schedule registers, as its config frame reports them. */
function sprayerRegisters(): Record<string, number> {
  const address = sprayScheduleRegisters(0);
  const packed = packSpraySchedule({ enabled: true, minuteOfDay: 360, durationSteps: 3, days: [1, 3, 5] });
  return { [String(address.time)]: packed.time & 0xffff, [String(address.days)]: packed.days };
}

/**
 * Broadcast spray (application §7) on both storages, with two instances sharing one database: the
 * cool-down is the database's, kept per sprayer (issue 34, item 7), so the second instance refuses a
 * broadcast the first just made, on whatever group names the same sprayers. Both instances share a
 * clock the tests move past the cool-down.
 */
describe.each(DIALECTS)('broadcast spray on %s', (dialect) => {
  let a: TestApp;
  let b: FastifyInstance;
  let sqliteDir: string | undefined;
  const clients: MqttClient[] = [];
  const tokens: Record<string, string> = {};
  const received: DeviceCommand[] = [];
  let clockOffsetMs = 0;
  const now = () => Date.now() + clockOffsetMs;
  const passCooldown = () => {
    clockOffsetMs += BROADCAST_SPRAY_COOLDOWN_SECONDS * 1000;
  };

  const db = () => a.app.storage.db;
  const groupId = async (name: string) =>
    (await db().selectFrom('groups').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const broadcast = (app: FastifyInstance, who: string, payload: object) =>
    app.inject({ method: 'POST', url: PATH, headers: { authorization: tokens[who]! }, payload });
  const broadcasts = () => db().selectFrom('sprayer_broadcasts').selectAll().orderBy('device_id').execute();
  const deviceId = async (thingName: string) =>
    (await db().selectFrom('devices').select('id').where('thing_name', '=', thingName).executeTakeFirstOrThrow()).id;
  const writes = () => received.filter((command) => command.cmd === 'writeChannel').length;

  /** A sprayer over real MQTT that reports its schedule registers and answers the broadcast write. */
  const connectSprayer = async (thingName: string, password: string, answer: 'OK' | 'FAIL') => {
    const { client, publish } = await connectTestDevice(a.app, thingName, password, (command, reply) => {
      received.push(command);
      void reply({ v: 4, type: 'reply', id: command.id, result: answer, ...(answer === 'OK' ? { value: 1 } : {}) });
    });
    clients.push(client);
    await publish({ v: 4, type: 'conn', t: Date.now(), connected: true });
    await publish({ v: 4, type: 'config', subtype: 'device', t: Date.now(), registers: sprayerRegisters() });
    await until(async () => {
      const row = await db()
        .selectFrom('devices')
        .select(['is_connected', 'registers'])
        .where('thing_name', '=', thingName)
        .executeTakeFirstOrThrow();
      return row.is_connected === 1 && row.registers !== '{}';
    });
  };

  beforeAll(async () => {
    // Two instances need one database: a file for SQLite (PostgreSQL's test database is one already).
    sqliteDir = dialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-spray-')) : undefined;
    const env: Record<string, string> = sqliteDir ? { DATABASE_URL: path.join(sqliteDir, 'fieldlink.db') } : {};
    a = await startTestApp(dialect, { mqtt: true, listen: true, commandTimeoutMs: 1500, env, now });
    const config = loadConfig({
      DATABASE_URL: a.config.databaseUrl,
      WEB_DIST: '/nonexistent',
      FIELDLINK_INSTANCE_ID: 'spray-b',
    });
    const storage = openStorage(config.databaseUrl);
    await migrate(storage.db);
    b = await buildApp({ config, storage, mqttPort: null, now });
    await b.ready();

    for (const who of ['spray', 'viewer', 'admin']) tokens[who] = await signIn(a.app, `${who}@fieldlink.test`);
    const passwords = new Map((await demoFleet(db())).map((entry) => [entry.thingName, entry.password]));
    await connectSprayer('OSC-SPR01', passwords.get('OSC-SPR01')!, 'OK');
    await connectSprayer('OSC-SPR03', passwords.get('OSC-SPR03')!, 'FAIL');
    // Row 2 has reported its schedule registers before but is offline now.
    await db()
      .updateTable('devices')
      .set({ registers: JSON.stringify(sprayerRegisters()) })
      .where('thing_name', '=', 'OSC-SPR02')
      .execute();
  });
  afterAll(async () => {
    for (const client of clients) await client.endAsync(true);
    await b?.close();
    await a?.close();
    if (sqliteDir) fs.rmSync(sqliteDir, { recursive: true, force: true });
  });

  it('refuses a user without MOSNIX_BROADCAST_SPRAY with 401 and the specification’s message, changing nothing', async () => {
    const acmeGroup = await db()
      .selectFrom('devices')
      .select('group_id')
      .where('thing_name', '=', 'ACME-BLR01')
      .executeTakeFirstOrThrow();
    const answer = await broadcast(a.app, 'viewer', { groupId: acmeGroup.group_id });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toMatchObject({ message: BROADCAST_SPRAY_FORBIDDEN });
    expect(await broadcasts()).toEqual([]);
    expect(received).toEqual([]);
  });

  it('answers another account’s group exactly like a missing one, and refuses bad bodies with 400', async () => {
    const acmeRoot = await groupId('Acme Controls');
    const foreign = await broadcast(a.app, 'spray', { groupId: acmeRoot });
    const missing = await broadcast(a.app, 'spray', { groupId: 'no-such-group' });
    expect(foreign.statusCode).toBe(404);
    expect([foreign.statusCode, foreign.body]).toEqual([missing.statusCode, missing.body]);
    for (const payload of [{}, { groupId: '' }, { groupId: acmeRoot, extra: 1 }, { groupId: ['a', 'b'] }]) {
      expect((await broadcast(a.app, 'spray', payload)).statusCode).toBe(400);
    }
    expect(await broadcasts()).toEqual([]);
    expect(received).toEqual([]);
  });

  it('sends the spray to the group’s sprayers and answers what each did', async () => {
    const root = await groupId('Orchard Spray Co');
    const answer = await broadcast(a.app, 'spray', { groupId: root });
    expect(answer.statusCode).toBe(200);
    const body = answer.json<BroadcastSprayAnswer>();
    // The pump house is no sprayer (it reports no spray schedule): it is left out.
    expect(body.devices.map((device) => [device.thingName, device.name, device.result])).toEqual([
      ['OSC-SPR01', 'Sprayer Row 1', 'OK'],
      ['OSC-SPR02', 'Sprayer Row 2', 'OFFLINE'],
      ['OSC-SPR03', 'Sprayer Row 3', 'FAIL'],
    ]);
    const writes = received.filter((command) => command.cmd === 'writeChannel');
    expect(writes.map((command) => command.cmd === 'writeChannel' && [command.code, command.value])).toEqual([
      [SPRAYER_CHANNELS.broadcastSpray, 1],
      [SPRAYER_CHANNELS.broadcastSpray, 1],
    ]);
  });

  it('refuses a second broadcast on the group within the cool-down on another instance, with retryAfterSeconds', async () => {
    const root = await groupId('Orchard Spray Co');
    const sent = received.length;
    const answer = await broadcast(b, 'spray', { groupId: root });
    expect(answer.statusCode).toBe(429);
    const body = answer.json<BroadcastSprayTooSoon>();
    expect(body.retryAfterSeconds).toBeGreaterThan(BROADCAST_SPRAY_COOLDOWN_SECONDS - 30);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(BROADCAST_SPRAY_COOLDOWN_SECONDS);
    expect(body.message).toBe(broadcastSprayWaitMessage(body.retryAfterSeconds));
    expect(answer.headers['retry-after']).toBe(String(body.retryAfterSeconds));
    expect(received.length).toBe(sent);
  });

  it('refuses, within the cool-down, a subgroup or a new group around the same sprayers, on either instance', async () => {
    const root = await groupId('Orchard Spray Co');
    const north = await groupId('North Block');
    const sent = writes();
    const [spr01, spr02, spr03] = await Promise.all(['OSC-SPR01', 'OSC-SPR02', 'OSC-SPR03'].map(deviceId));
    // The connected sprayers were sent the spray and are cooling down; the offline one was not.
    expect((await broadcasts()).map((row) => row.device_id).sort()).toEqual([spr01, spr03].sort());
    expect((await broadcasts()).map((row) => row.device_id)).not.toContain(spr02);

    for (const app of [a.app, b]) {
      const answer = await broadcast(app, 'spray', { groupId: north });
      expect(answer.statusCode).toBe(429);
      expect(answer.json<BroadcastSprayTooSoon>().retryAfterSeconds).toBeGreaterThan(
        BROADCAST_SPRAY_COOLDOWN_SECONDS - 30,
      );
    }

    // A new group with the sprayed group moved into it names the same sprayers: refused too.
    const added = await a.app.inject({
      method: 'POST',
      url: '/api/v1/group',
      headers: { authorization: tokens.spray! },
      payload: { parentId: root, name: 'Wrapper Block' },
    });
    expect(added.statusCode).toBe(200);
    const wrapper = added.json<{ id: string }>().id;
    const moved = await a.app.inject({
      method: 'POST',
      url: '/api/v1/move',
      headers: { authorization: tokens.spray! },
      payload: { type: 'GROUP', id: north, sourceGroupId: root, destinationGroupId: wrapper },
    });
    expect(moved.statusCode).toBe(200);
    expect((await broadcast(b, 'spray', { groupId: wrapper })).statusCode).toBe(429);
    expect(writes()).toBe(sent);

    // Past the cool-down the same sprayers may be sprayed again, through any group.
    passCooldown();
    const again = await broadcast(a.app, 'spray', { groupId: wrapper });
    expect(again.statusCode).toBe(200);
    expect(again.json<BroadcastSprayAnswer>().devices.map((device) => [device.thingName, device.result])).toEqual([
      ['OSC-SPR01', 'OK'],
      ['OSC-SPR02', 'OFFLINE'],
    ]);
    // …and the parent naming it is refused for the sprayer they share, the other sprayer left unclaimed.
    const parent = await broadcast(b, 'spray', { groupId: root });
    expect(parent.statusCode).toBe(429);
    const rows = await broadcasts();
    expect(rows.find((row) => row.device_id === spr03)?.sprayed_at).toBeLessThan(
      rows.find((row) => row.device_id === spr01)!.sprayed_at,
    );
    expect(writes()).toBe(sent + 1);
  });

  it('lets exactly one of two instances broadcast when both try at once', async () => {
    passCooldown();
    const north = await groupId('North Block');
    const answers = await Promise.all([
      broadcast(a.app, 'spray', { groupId: north }),
      broadcast(b, 'spray', { groupId: north }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429]);
    const spr01 = await deviceId('OSC-SPR01');
    expect((await broadcasts()).filter((row) => row.device_id === spr01)).toHaveLength(1);
  });

  it('lets exactly one of many parallel broadcasts on groups sharing sprayers through, across instances', async () => {
    passCooldown();
    const groups = await Promise.all(['Orchard Spray Co', 'North Block', 'Wrapper Block', 'South Block'].map(groupId));
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        broadcast(index % 2 === 0 ? a.app : b, 'spray', { groupId: groups[index % groups.length]! }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // South Block shares no sprayer with North Block or the wrapper but does with the root: depending on
    // who wins, one broadcast (root) or two (a North-side group and South Block) go through.
    const winners = answers.filter((answer) => answer.statusCode === 200);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const sprayed = winners.flatMap((answer) =>
      answer
        .json<BroadcastSprayAnswer>()
        .devices.filter((device) => device.result !== 'OFFLINE')
        .map((device) => device.thingName),
    );
    // Each connected sprayer was claimed by exactly one broadcast, whichever groups won (the instance
    // without a broker answers TIMEOUT for what it could not send).
    expect(sprayed.sort()).toEqual(['OSC-SPR01', 'OSC-SPR03']);
  });

  it('is described in the OpenAPI document with its 401 and 429 answers', async () => {
    const document = (await a.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json<{
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    }>();
    const responses = document.paths[PATH]?.post?.responses ?? {};
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '401', '404', '429']));
  });

  it('starts no cool-down on a group without sprayers', async () => {
    const before = await broadcasts();
    const empty = await db()
      .selectFrom('groups')
      .select('id')
      .where('name', '=', 'Trash')
      .where(
        'account_id',
        '=',
        (
          await db()
            .selectFrom('devices')
            .select('account_id')
            .where('thing_name', '=', 'OSC-SPR01')
            .executeTakeFirstOrThrow()
        ).account_id,
      )
      .executeTakeFirstOrThrow();
    const answer = await broadcast(a.app, 'spray', { groupId: empty.id });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ devices: [] });
    expect(await broadcasts()).toEqual(before);
  });
});
