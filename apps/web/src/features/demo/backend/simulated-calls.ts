import { ALARM_ROUTES } from '@fieldlink/api/alarms';
import { DEVICE_ROUTES, type Device } from '@fieldlink/api/device';
import { binWidthOf, type DeviceLogsAnswer, type DeviceLogsQuery } from '@fieldlink/api/device-logs';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { DeviceSnapshot } from '../worker/protocol';
import { DemoCallError } from './demo-call-error';
import { answering, type DemoCalls } from './demo-calls';
import type { SimulationLink } from './simulation-link';
import { DEVICE_NOT_FOUND } from '@fieldlink/api/errors';

/**
 * The calls every simulated device answers the same way, in a demo and for a signed-in account's
 * `_DEMO` devices alike: its record, latest values and logs from the worker, its connection history
 * and its alarms.
 */

/** The simulated devices a backend answers for. */
export interface SimulatedDevices {
  link: SimulationLink;
  /** When their history began: connected since. */
  since: number;
  has(id: string): boolean;
  record(id: string, snapshot: DeviceSnapshot): Device;
  /** Asks the server for the latest values of the devices it keeps (a session's real devices). */
  serverKeepsOthers: boolean;
}

/** `GET /device-logs` of a simulated device, binned by the worker as the server bins stored logs. */
export async function simulatedLogs(
  link: SimulationLink,
  query: Omit<DeviceLogsQuery, 'format'>,
): Promise<DeviceLogsAnswer> {
  const { deviceId, start, end, binCount } = query;
  const channels = await link.logs({ thingName: deviceId, codes: query.channels.split(','), start, end, binCount });
  return { deviceId, start, end, binCount, binWidth: binWidthOf(start, end, binCount), channels };
}

export function simulatedDeviceCalls(devices: SimulatedDevices): DemoCalls {
  const known = (id: string) => {
    if (!devices.has(id)) throw new DemoCallError(404, DEVICE_NOT_FOUND);
    return id;
  };
  return Object.fromEntries([
    answering(DEVICE_ROUTES.device, async ({ query }) => {
      const [snapshot] = await devices.link.snapshots([known(query.id)]);
      if (!snapshot) throw new DemoCallError(404, DEVICE_NOT_FOUND);
      return devices.record(query.id, snapshot);
    }),
    answering(DEVICE_ROUTES.logs, ({ query }) =>
      simulatedLogs(devices.link, { ...query, deviceId: known(query.deviceId) }),
    ),
    // A simulated device has been connected since its history began.
    answering(DEVICE_ROUTES.connections, ({ query }) => {
      known(query.deviceId);
      return { connections: [{ t: devices.since, connected: true }] };
    }),
    // Its alarm bits travel live (`server/alarms`): no alarm is stored.
    answering(ALARM_ROUTES.deviceAlarms, ({ query }) => ({
      deviceId: known(query.deviceId),
      alarms: [],
      alarmsHaveBeenRead: true,
    })),
    answering(DEVICE_ROUTES.latestValues, async ({ query, call }) => {
      const ids = query.ids.split(',');
      const others = ids.filter((id) => !devices.has(id));
      let answer: Record<string, Record<string, LatestValue>> = {};
      if (devices.serverKeepsOthers && others.length > 0) {
        const response = await call.network({ ...call.query, ids: others.join(',') });
        if (!response.ok) return response;
        answer = (await response.json()) as typeof answer;
      }
      const simulated = ids.filter((id) => devices.has(id));
      for (const snapshot of await devices.link.snapshots(simulated)) answer[snapshot.thingName] = snapshot.latest;
      return answer;
    }),
  ]);
}
