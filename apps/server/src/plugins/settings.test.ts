import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualTimers } from '../../testing/manual-timers';
import { startTestApp, type TestApp } from '../../testing/test-app';

// What the plugins read instead of options handed down by `buildApp`: no table is read, one storage is enough.
describe('the settings plugins read', () => {
  let t: TestApp;
  const now = () => 1_700_000_000_000;
  const timers = new ManualTimers();
  beforeAll(async () => {
    t = await startTestApp('sqlite', { commandTimeoutMs: 1234, ota: { idleTickMs: 50 }, now, timers });
  });
  afterAll(() => t?.close());

  it('decorate the instance with the starting process choices, the clock and the certificate', () => {
    expect(t.app.launch).toEqual({
      mqttPort: null,
      plainMqtt: true,
      mqttTlsPort: t.config.mqttTlsPort,
      commandTimeoutMs: 1234,
      ota: { idleTickMs: 50 },
      timers,
    });
    expect(t.app.launch.timers).toBe(timers);
    expect(t.app.clock).toBe(now);
    expect(t.app.config).toBe(t.config);
    expect(t.app.tlsCredentials).toBeNull();
    expect(t.app.broker).toBeNull();
  });
});
