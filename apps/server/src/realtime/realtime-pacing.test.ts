import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { REALTIME_BURST_SECONDS } from '@fieldlink/domain/realtime-limits';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { until } from '../../testing/until';

/** The rate of these tests: small enough that the flood below is paced, large enough to end soon. */
const MESSAGES_PER_SECOND = 200;
/** Well past the burst, and more bytes than one read of the server's socket (64 KiB) takes. */
const FLOOD = 2_000;

/**
 * Issue 34 item 2: a connection that sends past its budget is not read for a while, so a flood
 * waits in its sender's buffers; every message is still answered, in order, and other connections
 * are served meanwhile.
 */
describe.each(DIALECTS)('pacing a flooding real-time connection, on %s', (dialect) => {
  let t: TestApp;
  let url: string;
  let origin: string;
  let token: string;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      listen: true,
      env: { REALTIME_MESSAGES_PER_SECOND: String(MESSAGES_PER_SECOND) },
    });
    origin = baseUrl(t.app);
    url = `${origin.replace('http', 'ws')}${REALTIME_PATH}`;
    token = await signIn(t.app, 'ops@fieldlink.test');
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.socket.close();
    await t?.close();
  });

  const open = async () => {
    const socket = await TestSocket.open(url, token, origin);
    sockets.push(socket);
    return socket;
  };

  it('holds back a flood past the burst, answers every message, and serves other connections', async () => {
    expect(FLOOD).toBeGreaterThan(MESSAGES_PER_SECOND * REALTIME_BURST_SECONDS);
    const flooder = await open();
    const other = await open();
    const pausesBefore = t.app.hub.readPauses;

    for (let i = 0; i < FLOOD; i += 1) {
      flooder.socket.send(
        JSON.stringify({ type: 'server/unsubscribeDevices', id: `flood-${i}`, thingNames: ['ACME-BLR01'] }),
      );
    }
    // Another connection of the same user is answered while the flood is still held back.
    expect((await other.request({ type: 'server/unsubscribeDevices', thingNames: ['ACME-BLR01'] })).ok).toBe(true);
    const floodReplies = () =>
      flooder.received.filter((action) => action.type === 'server/reply' && action.id.startsWith('flood-'));
    expect(floodReplies().length).toBeLessThan(FLOOD);
    expect(t.app.hub.readPauses).toBeGreaterThan(pausesBefore);

    // Paced, not dropped: every message is answered once, and the connection stays open.
    await until(() => floodReplies().length === FLOOD, 120_000);
    const answered = new Set(floodReplies().map((reply) => (reply.type === 'server/reply' ? reply.id : '')));
    expect(answered).toEqual(new Set(Array.from({ length: FLOOD }, (_, i) => `flood-${i}`)));
    expect(flooder.received.filter((action) => action.type === 'server/error')).toEqual([]);
    expect(flooder.socket.readyState).toBe(flooder.socket.OPEN);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^fieldlink_realtime_read_pauses_total [1-9]/m);
  }, 180_000);
});
