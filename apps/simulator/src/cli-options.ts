import { parseArgs } from 'node:util';
import { isThingName } from '@fieldlink/api/mqtt-topics';
import { isDeviceKind, DEVICE_KINDS } from '@fieldlink/simulation/device-kind';
import type { FleetDeviceSpec, FleetStats } from './fleet';

export const USAGE = `Usage: npm run simulator -- --credentials FILE [options]

  --credentials FILE     JSON array of {thingName, password, kind}; kind is one of
                         ${DEVICE_KINDS.join(', ')} (default generic)
  --devices N            use the first N devices of the file (default: all)
  --broker URL           MQTT broker (default mqtt://localhost:1883)
  --interval SECONDS     seconds between log frames (default 5)
  --values-per-frame N   pad each log frame to N values, at most 256 (default: the model's own)
  --summary SECONDS      seconds between summary lines (default 10)
  --duration SECONDS     stop by itself after this long (default: run until SIGINT or SIGTERM)
  --help                 show this text`;

export interface CliOptions {
  readonly brokerUrl: string;
  readonly devices: readonly FleetDeviceSpec[];
  readonly logIntervalSeconds: number;
  readonly valuesPerFrame: number | undefined;
  readonly summaryIntervalSeconds: number;
  readonly durationSeconds: number | undefined;
}

export type CliRequest = { readonly help: true } | ({ readonly help: false } & CliOptions);

/** Reads the command line; throws an Error with a message fit for the user on bad input. */
export function parseCliArgs(argv: readonly string[], readTextFile: (path: string) => string): CliRequest {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      credentials: { type: 'string' },
      devices: { type: 'string' },
      broker: { type: 'string', default: 'mqtt://localhost:1883' },
      interval: { type: 'string', default: '5' },
      'values-per-frame': { type: 'string' },
      summary: { type: 'string', default: '10' },
      duration: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return { help: true };
  // Devices authenticate with their own credentials: there is no default secret to fall back on.
  if (values.credentials === undefined) throw new Error('--credentials FILE is required.');

  let devices = parseCredentials(readTextFile(values.credentials), values.credentials);
  if (values.devices !== undefined) {
    const count = positiveNumber(values.devices, '--devices', true);
    if (count > devices.length) {
      throw new Error(`--devices ${count} asks for more devices than ${values.credentials} lists (${devices.length}).`);
    }
    devices = devices.slice(0, count);
  }
  const valuesPerFrame =
    values['values-per-frame'] === undefined
      ? undefined
      : positiveNumber(values['values-per-frame'], '--values-per-frame', true);
  if (valuesPerFrame !== undefined && valuesPerFrame > 256) throw new Error('--values-per-frame is at most 256.');

  return {
    help: false,
    brokerUrl: values.broker,
    devices,
    logIntervalSeconds: positiveNumber(values.interval, '--interval', false),
    valuesPerFrame,
    summaryIntervalSeconds: positiveNumber(values.summary, '--summary', false),
    durationSeconds: values.duration === undefined ? undefined : positiveNumber(values.duration, '--duration', false),
  };
}

/** The devices of a credentials file: a JSON array of {thingName, password, kind?}. */
export function parseCredentials(text: string, source: string): FleetDeviceSpec[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not valid JSON.`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`${source} must be a non-empty JSON array.`);
  return parsed.map((entry: unknown, index) => {
    const where = `${source}[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${where} is not an object.`);
    const { thingName, password, kind = 'generic' } = entry as Record<string, unknown>;
    if (typeof thingName !== 'string' || !isThingName(thingName)) throw new Error(`${where}: invalid thingName.`);
    if (typeof password !== 'string' || password.length === 0) throw new Error(`${where}: password is missing.`);
    if (!isDeviceKind(kind)) throw new Error(`${where}: kind must be one of ${DEVICE_KINDS.join(', ')}.`);
    return { thingName, password, kind };
  });
}

/** One summary line: devices online, frames sent and acknowledged with their rate, commands, connects. */
export function formatSummary(now: FleetStats, before: FleetStats, seconds: number): string {
  const rate = seconds > 0 ? (now.framesSent - before.framesSent) / seconds : 0;
  return (
    `simulator: ${now.connected}/${now.devices} online | frames sent ${now.framesSent} (${rate.toFixed(1)}/s), ` +
    `acked ${now.framesAcked} | commands ${now.commandsRun} run, ${now.commandsIgnored} ignored | connects ${now.connects}`
  );
}

function positiveNumber(text: string, flag: string, integer: boolean): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${flag} must be a positive ${integer ? 'whole number' : 'number'}, not ${JSON.stringify(text)}.`);
  }
  return value;
}
