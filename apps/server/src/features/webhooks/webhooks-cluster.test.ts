import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AlarmListAnswer } from '@fieldlink/api/alarms';
import type { CreatedWebhook } from '@fieldlink/api/webhooks';
import { seedDemoAlarms } from '../../seed/demo-alarms';
import { signIn } from '../../../testing/test-app';
import { until } from '../../../testing/until';
import {
  clusterEnv,
  freshPostgres,
  prepareDatabase,
  startClusterApp,
  type TestDatabase,
} from '../../../testing/cluster/cluster-apps';
import { startMosquitto, type TestMosquitto } from '../../../testing/cluster/mosquitto';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testing/webhook-receiver';

/**
 * Issue 39 items 3 and 6: two instances on one PostgreSQL database share the jobs table, so each
 * event reaches a receiver once, a retried one included (its failed attempt and the retry, never a
 * second copy from the other instance).
 */
describe('webhooks from two instances on one PostgreSQL database', () => {
  let mosquitto: TestMosquitto;
  let database: TestDatabase;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let receiver: WebhookReceiver;
  /**
   * Both instances' clock: the real time moved on by the test to the retry's time, so the retry runs
   * after the product's back-off (10 s) without the test waiting it out (issue 37 item 7).
   */
  let ahead = 0;
  const now = () => Date.now() + ahead;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    mosquitto = await startMosquitto();
    database = await freshPostgres();
    await prepareDatabase(database.url);
    const env = { ...clusterEnv(mosquitto, database.url), FIELDLINK_WEBHOOK_ALLOW_PRIVATE: '1' };
    a = await startClusterApp({ ...env, FIELDLINK_INSTANCE_ID: 'hooks-a' }, { now });
    b = await startClusterApp({ ...env, FIELDLINK_INSTANCE_ID: 'hooks-b' }, { now });
    // The tests' seed has no history, so no alarms: the demo's alarms give this test its events.
    await seedDemoAlarms(a.storage.db);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await mosquitto?.close();
    await database?.drop();
    await receiver?.close();
  });

  it('delivers each event once, a retried one included', async () => {
    const jwt = await signIn(a, 'admin@fieldlink.test');
    const call = async (app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await app.inject({ method, url: `/api/v1${url}`, headers: { authorization: jwt }, payload });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as unknown;
    };
    // A webhook on every account the administrator has: an alarm reaches those of its account and above.
    const { accounts } = (await call(a, 'GET', '/account')) as { accounts: { id: string }[] };
    for (const [i, account] of accounts.entries()) {
      const path = `/hook/${i}`;
      const created = (await call(a, 'POST', '/webhooks', {
        accountId: account.id,
        url: receiver.url(path),
        events: ['alarm.acknowledged'],
      })) as CreatedWebhook;
      receiver.expectSecret(path, created.secret);
    }
    // The first request of all fails once: its event is tried again after the back-off (10 s), when
    // the test moves the clock there.
    let failed: { path: string; eventId: string } | null = null;
    receiver.answerWith(({ path, eventId, attempt }) => {
      if (failed === null && attempt === 1) failed = { path, eventId };
      return failed?.path === path && failed.eventId === eventId && attempt === 1 ? 500 : 204;
    });

    const { alarms } = (await call(b, 'GET', '/alarms?state=unacknowledged')) as AlarmListAnswer;
    const unanswered = alarms.filter((alarm) => alarm.acknowledgedAt === null).map((alarm) => alarm.id);
    expect(unanswered.length).toBeGreaterThan(1);
    // Half acknowledged through each instance: each queues its deliveries, either may send them.
    const half = Math.ceil(unanswered.length / 2);
    await call(a, 'POST', '/alarms/acknowledge', { ids: unanswered.slice(0, half) });
    await call(b, 'POST', '/alarms/acknowledge', { ids: unanswered.slice(half) });

    const deliveries = () => a.storage.db.selectFrom('webhook_deliveries').selectAll().execute();
    const queued = await deliveries();
    expect(queued.length).toBeGreaterThanOrEqual(unanswered.length);
    // Every other delivery made, and the failed one waiting for its retry: then the clock moves on to
    // the retry's time (no sooner, so no other attempt or lock is hurried).
    let retryAt = 0;
    let failedAt = 0;
    await until(async () => {
      const waiting = (await deliveries()).filter((row) => row.state !== 'delivered');
      const [row] = waiting;
      if (waiting.length !== 1 || row!.attempts !== 1 || row!.next_attempt_at === null) return false;
      retryAt = row!.next_attempt_at;
      failedAt = row!.last_attempt_at!;
      return true;
    }, 40_000);
    // The product's back-off is kept: the retry is due 10 s after the failed attempt.
    expect(retryAt - failedAt).toBeGreaterThanOrEqual(10_000);
    ahead += Math.max(0, retryAt - now());
    await until(async () => (await deliveries()).every((row) => row.state === 'delivered'), 40_000);

    const done = await deliveries();
    expect(receiver.received.every((entry) => entry.signatureValid)).toBe(true);
    // One request per delivery, plus the one failed attempt of the retried event.
    expect(receiver.received).toHaveLength(done.length + 1);
    const answered = receiver.received.filter(
      (entry) =>
        !(
          failed &&
          entry.path === failed.path &&
          entry.body.id === failed.eventId &&
          entry.headers['x-fieldlink-attempt'] === '1'
        ),
    );
    const keys = answered.map((entry) => `${entry.path} ${entry.body.id}`).sort();
    expect(new Set(keys).size).toBe(keys.length);
    const urls = new Map(
      (await a.storage.db.selectFrom('webhooks').select(['id', 'url']).execute()).map((row) => [row.id, row.url]),
    );
    const expected = done.map((row) => `${new URL(urls.get(row.webhook_id)!).pathname} ${row.event_id}`).sort();
    expect(keys).toEqual(expected);
    const retried = done.find((row) => row.event_id === failed!.eventId && row.attempts === 2);
    expect(retried).toBeDefined();
    expect(done.filter((row) => row.attempts !== 1)).toEqual([retried]);
    expect(
      receiver.received
        .filter((entry) => entry.path === failed!.path && entry.body.id === failed!.eventId)
        .map((entry) => entry.headers['x-fieldlink-attempt']),
    ).toEqual(['1', '2']);
  }, 90_000);
});
