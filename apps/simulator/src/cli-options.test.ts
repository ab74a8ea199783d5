import { describe, expect, it } from 'vitest';
import { formatSummary, parseCliArgs, parseCredentials } from './cli-options';
import type { FleetStats } from './fleet';

const FILE = JSON.stringify([
  { thingName: 'load-0001', password: 'p1', kind: 'waterPlant' },
  { thingName: 'load-0002', password: 'p2' },
  { thingName: 'load-0003', password: 'p3', kind: 'retailShelf' },
]);
const read = (): string => FILE;

describe('parseCliArgs', () => {
  it('reads every option', () => {
    const request = parseCliArgs(
      [
        '--credentials',
        'devices.json',
        '--devices',
        '2',
        '--broker',
        'mqtt://10.0.0.5:1883',
        '--interval',
        '0.5',
        '--values-per-frame',
        '64',
        '--summary',
        '2',
        '--duration',
        '30',
      ],
      read,
    );
    expect(request).toEqual({
      help: false,
      brokerUrl: 'mqtt://10.0.0.5:1883',
      devices: [
        { thingName: 'load-0001', password: 'p1', kind: 'waterPlant' },
        { thingName: 'load-0002', password: 'p2', kind: 'generic' },
      ],
      logIntervalSeconds: 0.5,
      valuesPerFrame: 64,
      summaryIntervalSeconds: 2,
      durationSeconds: 30,
    });
  });

  it('defaults to every device of the file, a local broker and a 5 s interval', () => {
    expect(parseCliArgs(['--credentials', 'devices.json'], read)).toMatchObject({
      brokerUrl: 'mqtt://localhost:1883',
      logIntervalSeconds: 5,
      valuesPerFrame: undefined,
      durationSeconds: undefined,
      devices: { length: 3 },
    });
  });

  it.each([
    [[], /--credentials FILE is required/],
    [['--credentials', 'devices.json', '--devices', '4'], /more devices than devices.json lists/],
    [['--credentials', 'devices.json', '--devices', '1.5'], /--devices must be a positive whole number/],
    [['--credentials', 'devices.json', '--interval', '0'], /--interval must be a positive number/],
    [['--credentials', 'devices.json', '--values-per-frame', '300'], /at most 256/],
    [['--credentials', 'devices.json', '--bogus'], /Unknown option/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCliArgs(argv, read)).toThrow(message);
  });

  it('answers --help without needing credentials', () => {
    expect(parseCliArgs(['--help'], read)).toEqual({ help: true });
  });
});

describe('parseCredentials', () => {
  it.each([
    ['{', /not valid JSON/],
    ['[]', /non-empty JSON array/],
    ['[1]', /\[0\] is not an object/],
    ['[{"thingName":"dev/+/#","password":"p"}]', /invalid thingName/],
    ['[{"thingName":"ok-name","password":""}]', /password is missing/],
    ['[{"thingName":"ok-name","password":"p","kind":"toaster"}]', /kind must be one of/],
  ])('refuses %s', (text, message) => {
    expect(() => parseCredentials(text, 'f.json')).toThrow(message);
  });
});

describe('formatSummary', () => {
  it('shows devices online, frames with their rate, acks, commands and connects', () => {
    const before: FleetStats = {
      devices: 3,
      connected: 3,
      framesSent: 100,
      framesAcked: 98,
      commandsRun: 1,
      commandsIgnored: 0,
      connects: 3,
    };
    const now: FleetStats = { ...before, connected: 2, framesSent: 150, framesAcked: 149, connects: 4 };
    expect(formatSummary(now, before, 10)).toBe(
      'simulator: 2/3 online | frames sent 150 (5.0/s), acked 149 | commands 1 run, 0 ignored | connects 4',
    );
  });
});
