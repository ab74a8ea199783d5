import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientAction, REALTIME_PATH, type ServerAction } from '@fieldlink/api/realtime';
import { TestSocket } from '../../testing/test-socket';
import { DIALECTS, baseUrl, startTestApp, type TestApp } from '../../testing/test-app';
import {
  FUZZ_INPUTS,
  FUZZ_SEED,
  FUZZ_TIMEOUT_MS,
  accountRows,
  fieldValue,
  objectFor,
  tokenFor,
  type FieldSchema,
} from '../../testing/fuzz-support';

/**
 * The real-time channel fuzzed the way the device frames and the HTTP API are (SECURITY.md 14): a
 * VIEW_DASH viewer's socket sends random text, random JSON, binary frames and nearly valid actions
 * of every type of the contract (their fields from the contract's own schema, aimed at the viewer's
 * devices, another account's, and none). The server answers every message and stays up, the socket
 * stays open, the viewer never receives another account's device, a witness socket of that other
 * account keeps receiving its device, and that account's data is unchanged.
 */

/** Real-time messages sent, and the devices' events the test emits meanwhile. */
const BATCH = 50;

describe.each(DIALECTS)('fuzzing the real-time channel on %s', (dialect) => {
  let t: TestApp;
  let fuzzer: TestSocket;
  let witness: TestSocket;
  let ownThings: string[];
  let otherThing: string;
  let otherAccountId: string;

  beforeAll(async () => {
    // Paced reads are proved in realtime-pacing.test.ts; here the fuzz sends as fast as the socket takes.
    t = await startTestApp(dialect, {
      listen: true,
      commandTimeoutMs: 50,
      env: { REALTIME_MESSAGES_PER_SECOND: '1000000' },
    });
    const db = t.app.storage.db;
    const accountOf = async (name: string) =>
      (await db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const thingsOf = async (accountId: string) =>
      (await db.selectFrom('devices').select('thing_name').where('account_id', '=', accountId).execute()).map(
        (device) => device.thing_name,
      );
    ownThings = await thingsOf(await accountOf('Acme Controls'));
    otherAccountId = await accountOf('Filtec Water');
    otherThing = (await thingsOf(otherAccountId))[0]!;
    const origin = baseUrl(t.app);
    const url = `${origin.replace('http', 'ws')}${REALTIME_PATH}`;
    fuzzer = await TestSocket.open(url, await tokenFor(t.app, 'viewer@fieldlink.test'), origin);
    witness = await TestSocket.open(url, await tokenFor(t.app, 'water@fieldlink.test'), origin);
    expect((await witness.request({ type: 'server/subscribeDevices', thingNames: [otherThing] })).ok).toBe(true);
    // Seeding hashes the demo users' passwords: slow on a loaded machine, and on PostgreSQL slower.
  }, 120_000);
  afterAll(async () => {
    fuzzer?.socket.close();
    witness?.socket.close();
    await t?.close();
  });

  it(
    `answers ${FUZZ_INPUTS.toLocaleString('en')} random and nearly valid messages, stays up and leaks nothing across accounts`,
    async () => {
      const ids = [...ownThings, otherThing, 'NOT-A-DEVICE', 'c1', 'sp1', 'do1', 'UTC', 'FLASH LED'];
      const nearlyAction = fc
        .constantFrom(...(ClientAction.anyOf as FieldSchema[]))
        .chain((schema) => objectFor(schema, ids))
        .map((action) => JSON.stringify(action));
      const message = fc.oneof(
        { weight: 6, arbitrary: nearlyAction },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((json) => JSON.stringify(json) ?? '') },
        { weight: 1, arbitrary: fieldValue(ids).map((value) => JSON.stringify(value) ?? 'undefined') },
        { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '',
            '{',
            'null',
            '[]',
            '['.repeat(20_000),
            '{"type":"server/subscribeDevices","id":"x","thingNames":["' + 'A'.repeat(40_000) + '"]}',
            '{"type":"server/writeChannel","id":"x","thingName":"ACME-BLR01","code":"c1","value":1e400}',
            '{"__proto__":{"type":"server/subscribeDevices"},"id":"p"}',
          ),
        },
      );

      const kept = await accountRows(t.app.storage.db, otherAccountId);
      let sent = 0;
      let probes = 0;
      let witnessed = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(message, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const receivedBefore = fuzzer.received.length;
          for (const data of batch) fuzzer.socket.send(data);
          sent += batch.length;
          // A device event of each account meanwhile: the witness must see its own, the viewer never the other's.
          t.app.events.emit({
            type: 'server/connectionState',
            thingName: otherThing,
            isConnected: true,
            lastConnection: sent,
            lastDisconnection: null,
          });
          // The channel still answers after the batch: a valid request's reply comes back.
          const probe = await fuzzer.request({ type: 'server/unsubscribeDevices', thingNames: [ownThings[0]!] });
          probes += 1;
          await witness.waitFor((action) => action.type === 'server/connectionState' && action.lastConnection === sent);
          witnessed += 1;
          const answered = fuzzer.received.length - receivedBefore;
          return probe.ok && fuzzer.socket.readyState === fuzzer.socket.OPEN && answered >= 1;
        }),
        { numRuns: Math.ceil(FUZZ_INPUTS / BATCH), seed: FUZZ_SEED, endOnFailure: true },
      );
      expect(sent).toBe(Math.ceil(FUZZ_INPUTS / BATCH) * BATCH);
      expect(probes).toBe(witnessed);
      // Every message got its answer (a reply or an error), as many as were sent and the probes.
      await expect
        .poll(() => fuzzer.received.filter((action) => isAnswer(action)).length, { timeout: 10_000 })
        .toBe(sent + probes);
      // Nothing of the other account reached the viewer, whatever it asked for.
      expect(fuzzer.received.filter((action) => 'thingName' in action && action.thingName === otherThing)).toEqual([]);
      expect(await accountRows(t.app.storage.db, otherAccountId)).toBe(kept);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    },
    FUZZ_TIMEOUT_MS,
  );
});

/** A reply to a request or an error about a message: what the server sends for each message. */
function isAnswer(action: ServerAction): boolean {
  return action.type === 'server/reply' || action.type === 'server/error';
}
