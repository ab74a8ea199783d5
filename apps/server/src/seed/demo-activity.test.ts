import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlarmListAnswer } from '@fieldlink/api/alarms';
import type { OtaPendingAnswer, OtaRolloutsAnswer } from '@fieldlink/api/ota';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { seedDemoAlarms } from './demo-alarms';
import { seedDemoRollout } from './demo-ota';

// Issue 35 item 11: no seeded alarm was ever active and no rollout ran, so those screens could not be tried.
describe.each(DIALECTS)('demo alarms and rollout on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedDemoAlarms(t.app.storage.db);
    await seedDemoRollout(t.app.storage.db);
  }, 180_000);
  afterAll(() => t?.close());

  it.each(['brew', 'spray', 'stock', 'water', 'ops'])(
    '%s@ sees an active alarm waiting for someone and an acknowledged one',
    async (who) => {
      const token = await signIn(t.app, `${who}@fieldlink.test`);
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/alarms',
        headers: { authorization: token },
      });
      expect(response.statusCode).toBe(200);
      const statuses = response.json<AlarmListAnswer>().alarms.map((alarm) => alarm.status);
      expect(statuses).toContain('ACTIVE_UNACKNOWLEDGED');
      expect(statuses).toContain('ACTIVE_ACKNOWLEDGED');
    },
  );

  it('stores each channel ACTIVE, so the evaluator carries on from the alarm it raised', async () => {
    const db = t.app.storage.db;
    const device = await db
      .selectFrom('devices')
      .select('id')
      .where('thing_name', '=', 'NGB-FV01')
      .executeTakeFirstOrThrow();
    const config = await db
      .selectFrom('alarm_configs')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(config).toMatchObject({ code: 'c1', phase: 'ACTIVE', side: 'HIGH', high: 11 });
  });

  it('has a rollout in progress: one device updated, two awaiting approval on the pending list', async () => {
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    const get = async <T>(url: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: admin } })).json<T>();
    const { rollouts } = await get<OtaRolloutsAnswer>('/devices/ota-rollouts');
    expect(rollouts).toHaveLength(1);
    expect(rollouts[0]).toMatchObject({ state: 'RUNNING', skipApproval: false });
    expect(rollouts[0]!.devices.map((device) => [device.thingName, device.state])).toEqual([
      ['ACME-BLR01', 'SUCCEEDED'],
      ['ACME-COLD01', 'AWAITING_APPROVAL'],
      ['ACME-COLD02', 'AWAITING_APPROVAL'],
    ]);
    const pending = await get<OtaPendingAnswer>('/devices/ota-pending');
    expect(pending.devices.map((device) => device.thingName).sort()).toEqual(['ACME-COLD01', 'ACME-COLD02']);
  });
});
