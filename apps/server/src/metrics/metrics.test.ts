import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { baseUrl, DIALECTS, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { demoFleet } from '../seed/seed';

/** Headers by which proxies and CDNs name the client they forward, beside X-Forwarded-For and Forwarded. */
const FORWARDED_CLIENT_HEADERS = [
  'x-client-ip',
  'cf-connecting-ip',
  'true-client-ip',
  'fastly-client-ip',
  'x-cluster-client-ip',
  'via',
];

/** The value of one sample line of a Prometheus text answer. */
function sample(text: string, line: string): number {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text);
  if (!match) throw new Error(`No sample ${line}`);
  return Number(match[1]);
}

describe.each(DIALECTS)('Prometheus metrics on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, env: { METRICS_TOKEN: 'scrape-secret' } });
  });
  afterAll(async () => t?.close());

  const scrape = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('needs the metrics token when one is set', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('counts stored frames and data points, refused frames by reason, devices, connections and latencies', async () => {
    const before = await scrape();
    expect(before).toContain('# TYPE fieldlink_ingest_frames_total counter');
    expect(before).toContain('# TYPE fieldlink_ingest_store_seconds histogram');
    const { password } = (await demoFleet(t.app.storage.db)).find((device) => device.thingName === 'ACME-BLR01')!;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'ACME-BLR01',
      username: 'ACME-BLR01',
      password,
      reconnectPeriod: 0,
    });
    try {
      const topic = deviceUpTopic('ACME-BLR01');
      await client.publishAsync(topic, JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 1, c2: 2 } }), {
        qos: 1,
      });
      await client.publishAsync(topic, 'not json', { qos: 1 });
      await signIn(t.app, 'viewer@fieldlink.test');
      const after = await scrape();
      expect(sample(after, 'fieldlink_ingest_frames_total') - sample(before, 'fieldlink_ingest_frames_total')).toBe(1);
      expect(
        sample(after, 'fieldlink_ingest_data_points_total') - sample(before, 'fieldlink_ingest_data_points_total'),
      ).toBe(2);
      const unreadable = 'fieldlink_ingest_rejected_frames_total{reason="unreadable"}';
      expect(sample(after, unreadable) - sample(before, unreadable)).toBe(1);
      expect(sample(after, 'fieldlink_mqtt_connections')).toBe(1);
      // Read from the database and cached for 5 s: present, counted cluster-wide.
      expect(sample(after, 'fieldlink_devices_connected')).toBeGreaterThanOrEqual(0);
      expect(sample(after, 'fieldlink_realtime_sockets')).toBe(0);
      expect(sample(after, 'fieldlink_jobs{state="queued"}')).toBe(0);
      expect(sample(after, 'fieldlink_database_up')).toBe(1);
      expect(sample(after, 'fieldlink_ingest_store_seconds_count')).toBeGreaterThanOrEqual(2);
      expect(
        sample(
          after,
          'fieldlink_http_request_duration_seconds_count{method="POST",route="/api/v1/signin",status="2xx"}',
        ),
      ).toBe(1);
    } finally {
      await client.endAsync(true);
    }
  });
});

// Who may scrape is decided before any storage is read: one dialect is enough.
describe('who may scrape /metrics without a token, behind one trusted proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Behind a reverse proxy the client is the address the proxy appended to X-Forwarded-For.
    t = await startTestApp('sqlite', { listen: true, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => t?.close());

  it('answers a scrape from this machine, over a real loopback socket and on IPv6 loopback', async () => {
    const response = await fetch(`${baseUrl(t.app)}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('fieldlink_ingest_frames_total');
    const ipv6 = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(ipv6.statusCode).toBe(200);
  });

  it('answers a client on this machine that the trusted proxy on loopback forwards', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      // The left-most entry is the client's own text; the proxy appended what it saw.
      headers: { 'x-forwarded-for': '203.0.113.7, 127.0.0.1', 'x-forwarded-proto': 'http' },
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    { name: 'another machine', remoteAddress: '203.0.113.7', headers: {} },
    { name: 'another machine on the LAN', remoteAddress: '192.168.1.20', headers: {} },
    {
      name: 'another machine claiming loopback in X-Forwarded-For',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    },
    {
      name: 'another machine claiming loopback in Forwarded',
      remoteAddress: '203.0.113.7',
      headers: { forwarded: 'for=127.0.0.1' },
    },
    {
      name: 'an outsider forwarded by a reverse proxy on this machine',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    },
    {
      name: 'an outsider who wrote loopback first, forwarded by the proxy',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' },
    },
    {
      name: 'an outsider forwarded by a proxy that sets X-Real-IP',
      remoteAddress: '127.0.0.1',
      headers: { 'x-real-ip': '203.0.113.7' },
    },
    ...FORWARDED_CLIENT_HEADERS.map((header) => ({
      name: `an outsider forwarded by a proxy that sets ${header}`,
      remoteAddress: '127.0.0.1',
      headers: { [header]: '203.0.113.7' },
    })),
    {
      name: 'an outsider named in X-Client-IP beside a loopback X-Forwarded-For',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '127.0.0.1', 'x-client-ip': '203.0.113.7' },
    },
  ])('refuses $name with 403 and no metrics', async ({ remoteAddress, headers }) => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('fieldlink_');
    expect(response.json()).toMatchObject({ message: expect.stringContaining('METRICS_TOKEN') });
  });
});

describe('who may scrape /metrics without a token, with no proxy trusted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('answers a loopback request that names nobody else', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
  });

  // A proxy on this machine that is not configured forwards outsiders over loopback: any header by
  // which it names them refuses the scrape, X-Forwarded-For naming loopback included.
  it.each([
    ...FORWARDED_CLIENT_HEADERS.map((header) => ({ header, value: '203.0.113.7' })),
    { header: 'x-forwarded-for', value: '127.0.0.1' },
    { header: 'x-real-ip', value: '203.0.113.7' },
  ])('refuses a loopback request carrying $header', async ({ header, value }) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { [header]: value },
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('fieldlink_');
  });
});

describe('a configured metrics token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { env: { METRICS_TOKEN: 'scrape-secret' } });
  });
  afterAll(async () => t?.close());

  it('lets another machine scrape with the token, and nobody without it', async () => {
    const outside = { method: 'GET' as const, url: '/metrics', remoteAddress: '203.0.113.7' };
    const withToken = await t.app.inject({ ...outside, headers: { authorization: 'Bearer scrape-secret' } });
    expect(withToken.statusCode).toBe(200);
    expect((await t.app.inject(outside)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  });
});
