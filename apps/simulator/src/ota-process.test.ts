import { describe, expect, it } from 'vitest';
import { nextPatchVersion, otaSteps, planOtaUpdate } from './ota-process';

describe('planOtaUpdate', () => {
  it.each([
    ['firmware 5.0.0', '5.0.0'],
    ['https://fw.example.com/zen-4.3.1.bin', '4.3.1'],
    ['latest', '4.2.2'],
  ])('%s installs %s', (updateCommand, firmware) =>
    expect(planOtaUpdate({ thingName: 'SIM-1', updateCommand, firmware: '4.2.1', failureRate: 0 }).firmware).toBe(
      firmware,
    ),
  );

  it.each([
    [0, 0],
    [1, 200],
  ])('failure rate %d fails %d of 200 devices', (failureRate, failures) => {
    const plans = Array.from({ length: 200 }, (_, index) =>
      planOtaUpdate({ thingName: `SIM-${index}`, updateCommand: 'firmware 5.0.0', firmware: '4.2.1', failureRate }),
    );
    expect(plans.filter((plan) => plan.fails)).toHaveLength(failures);
  });

  it('fails about the given share of a fleet, the same devices every time', () => {
    const plan = (index: number) =>
      planOtaUpdate({
        thingName: `SIM-${index}`,
        updateCommand: 'firmware 5.0.0',
        firmware: '4.2.1',
        failureRate: 0.2,
      });
    const failing = Array.from({ length: 1000 }, (_, index) => index).filter((index) => plan(index).fails);
    expect(failing.length).toBeGreaterThan(150);
    expect(failing.length).toBeLessThan(250);
    expect(failing.every((index) => plan(index).fails)).toBe(true);
  });
});

describe('otaSteps', () => {
  it('downloads, installs, reboots', () =>
    expect(
      otaSteps({ fails: false, firmware: '5.0.0' }).map((step) => (step.kind === 'report' ? step.report : step.kind)),
    ).toEqual([
      { state: 'downloading', percent: 0 },
      { state: 'downloading', percent: 20 },
      { state: 'downloading', percent: 40 },
      { state: 'downloading', percent: 60 },
      { state: 'downloading', percent: 80 },
      { state: 'downloading', percent: 100 },
      { state: 'installing' },
      { state: 'rebooting' },
      'reboot',
    ]));

  it('a failing update stops during the download', () =>
    expect(otaSteps({ fails: true, firmware: '5.0.0' }).at(-1)).toEqual({
      kind: 'report',
      report: { state: 'failed', error: 'Image checksum mismatch' },
    }));
});

describe('nextPatchVersion', () => {
  it.each([
    ['4.2.1', '4.2.2'],
    ['1.9', '1.10'],
    ['beta', 'beta.1'],
  ])('%s -> %s', (firmware, next) => expect(nextPatchVersion(firmware)).toBe(next));
});
