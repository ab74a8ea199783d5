import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer } from '@fieldlink/api/account';
import type { BrewMeta } from '@fieldlink/api/brew';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import {
  BREW_REGISTERS,
  CALIBRATION_CONTROLS,
  CALIBRATION_READ_REGISTERS,
  calibrationReadout,
  vatStatusRegister,
} from '@fieldlink/domain/brew';
import { startFleet, type Fleet } from '@fieldlink/simulator/fleet';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from './test-app';
import { TestSocket } from './test-socket';
import { until } from './until';
import { demoFleet } from '../src/seed/seed';

const TANK = 'NGB-FV01';

/**
 * A demo brew tank as the simulator runs it, over the embedded broker (issue 42, item 9): every
 * calibration press is answered as a device answers it (not "Command Failed."), the calibration
 * registers read back what was captured, and a vat status with bits 6 and 7 marks the tank.
 */
describe.each(DIALECTS)('a simulated brew tank over the real broker on %s', (dialect) => {
  let t: TestApp;
  let fleet: Fleet;
  let brewer: string;
  let socket: TestSocket;
  let cellarId: string;

  const overview = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/brew/overview?groupId=${cellarId}`,
        headers: { authorization: brewer },
      })
    ).json() as BrewMeta;
  const tank = async () => (await overview()).tanks.find((entry) => entry.thingName === TANK)!;

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true });
    brewer = await signIn(t.app, 'brew@fieldlink.test');
    const accounts = (
      await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: brewer } })
    ).json() as AccountAnswer;
    const brewery = accounts.accounts.find((account) => account.name === 'Northgate Brewing')!;
    cellarId = brewery.rootGroup.groups.find((group) => group.name === 'Cellar')!.id;
    const password = (await demoFleet(t.app.storage.db)).find((entry) => entry.thingName === TANK)!.password;
    fleet = await startFleet({
      brokerUrl: `mqtt://127.0.0.1:${t.app.broker!.port}`,
      devices: [{ thingName: TANK, password, kind: 'brewTank' }],
      logIntervalSeconds: 1,
    });
    const origin = baseUrl(t.app);
    socket = await TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, brewer, origin);
    // Connected once the server has its config frame: then commands reach it.
    await until(async () => (await tank()).isConnected, 30_000);
  }, 180_000);
  afterAll(async () => {
    socket?.socket.close();
    await fleet?.stop();
    await t?.close();
  });

  const command = (action: Record<string, unknown>) => socket.request({ thingName: TANK, ...action });

  it('answers every calibration press with OK, and shows the captured point in its registers', async () => {
    expect(await command({ type: 'server/writeChannel', code: 'gpf3', value: 1 })).toMatchObject({ ok: true });
    for (const { code } of CALIBRATION_CONTROLS.filter((control) => !['gpf3', 'gpf6', 'gpf7'].includes(control.code))) {
      const reply = await command({ type: 'server/writeChannel', code, value: 1 });
      expect([code, reply.ok, reply.error]).toEqual([code, true, undefined]);
    }
    const registers: Record<number, number> = {};
    for (const register of CALIBRATION_READ_REGISTERS) {
      const reply = await command({ type: 'server/readRegister', register });
      expect(reply.ok).toBe(true);
      registers[register] = reply.value as number;
    }
    const readout = calibrationReadout(registers);
    expect(readout.inputChannel).toBe('c1');
    // Fermenting beer: the low point captured from the temperature input, a CO2 total past 16 bits.
    expect(readout.lowCapture).toBeGreaterThan(0);
    expect(readout.lowCapture).toBeLessThan(40);
    expect(readout.co2Total).toBeGreaterThan(65_535);
    expect(await command({ type: 'server/writeChannel', code: 'gpf6', value: 1 })).toMatchObject({ ok: true });
    expect(await command({ type: 'server/writeChannel', code: 'gpf3', value: 0 })).toMatchObject({ ok: true });
  }, 60_000);

  it('marks the tank once its vat status register has bits 6 and 7 set, and unmarks it when they clear', async () => {
    const vat = (await command({ type: 'server/readRegister', register: BREW_REGISTERS.VAT_NUMBER })).value as number;
    const register = vatStatusRegister(vat);
    expect(await command({ type: 'server/writeRegister', register, value: 0 })).toMatchObject({ ok: true });
    await until(async () => !(await tank()).isVatMarked, 20_000);
    expect(await command({ type: 'server/writeRegister', register, value: 0b1100_0000 })).toMatchObject({ ok: true });
    await until(async () => (await tank()).isVatMarked, 20_000);
    expect(await command({ type: 'server/writeRegister', register, value: 0b0100_0000 })).toMatchObject({ ok: true });
    await until(async () => !(await tank()).isVatMarked, 20_000);
  }, 60_000);
});
