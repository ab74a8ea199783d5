import { binWidthOf, type DeviceLogsAnswer } from '@fieldlink/api/device-logs';
import type { LocalCall } from '../../../lib/demo/demo-session';
import type { SimulationLink } from './simulation-link';

/**
 * The answers every simulated device gives the same way, in a demo and for a signed-in account's
 * `_DEMO` devices alike: its logs from the worker, its connection history and its alarms.
 */

/** Days of history every simulated device shows at once (issue 19: at least 30). */
export const DEMO_HISTORY_DAYS = 30;

export const json = (status: number, body: unknown) =>
  new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export const text = (value: unknown): string => (typeof value === 'string' ? value : String(value ?? ''));

/** `GET /device-logs` of a simulated device, binned by the worker as the server bins stored logs. */
export async function simulatedLogs(link: SimulationLink, query: LocalCall['query']): Promise<DeviceLogsAnswer> {
  const deviceId = text(query.deviceId);
  const start = Number(query.start);
  const end = Number(query.end);
  const binCount = Number(query.binCount);
  const channels = await link.logs({
    thingName: deviceId,
    codes: text(query.channels).split(','),
    start,
    end,
    binCount,
  });
  return { deviceId, start, end, binCount, binWidth: binWidthOf(start, end, binCount), channels };
}

/** A simulated device has been connected since its history began. */
export const simulatedConnections = (since: number) => ({ connections: [{ t: since, connected: true }] });

/** A simulated device's alarm list: its alarm bits travel live (`server/alarms`), no alarm is stored. */
export const simulatedAlarms = (deviceId: string) => ({ deviceId, alarms: [], alarmsHaveBeenRead: true });
