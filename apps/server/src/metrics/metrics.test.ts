import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../testing/test-app';
import { demoFleet } from '../seed/seed';

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
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.fieldlink.broker!.port}`, {
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
