import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  AlarmsAction,
  ConnectionStateAction,
  DeviceConfigAction,
  HealthAction,
  OtaProgressAction,
} from '@fieldlink/api/realtime';
import type { DeviceEvent } from '../events';
import type { DeviceWithPath } from '../features/devices/repository';
import { CONFIG_COLUMNS } from '../ingest/ingest';

const checks = {
  'server/connectionState': TypeCompiler.Compile(ConnectionStateAction),
  'server/deviceConfig': TypeCompiler.Compile(DeviceConfigAction),
  'server/alarms': TypeCompiler.Compile(AlarmsAction),
  'server/otaProgress': TypeCompiler.Compile(OtaProgressAction),
  'server/health': TypeCompiler.Compile(HealthAction),
};

/** The config columns the ingest writes, each a column of the device's record (the type checks it). */
const STORED_CONFIG_COLUMNS: Readonly<Record<string, keyof DeviceWithPath>> = CONFIG_COLUMNS;
/** Config fields stored as JSON text. */
const CONFIG_JSON_COLUMNS = {
  timeDate: 'time_date',
  channels: 'channels',
  registers: 'registers',
  ports: 'ports',
} as const;

function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The device's config as one `server/deviceConfig` (subtype `device`: the whole device), every field
 * the record holds. A field whose stored value the contract would refuse (a browser ignores the
 * whole action then) is left out, so the rest still arrives.
 */
function configAction(row: DeviceWithPath): DeviceEvent | null {
  const config: Record<string, unknown> = { subtype: 'device' };
  for (const [field, column] of Object.entries(STORED_CONFIG_COLUMNS))
    if (row[column] !== null) config[field] = row[column];
  for (const [field, column] of Object.entries(CONFIG_JSON_COLUMNS)) {
    const value = parsed(row[column]);
    if (value !== null) config[field] = value;
  }
  const action = { type: 'server/deviceConfig', thingName: row.thing_name, config };
  const check = checks['server/deviceConfig'];
  for (let tries = Object.keys(config).length; tries > 0 && !check.Check(action); tries -= 1) {
    const wrong = check.Errors(action).First()?.path.split('/')[2];
    if (wrong === undefined || wrong === 'subtype' || !(wrong in config)) return null;
    delete config[wrong];
  }
  return check.Check(action) ? action : null;
}

/**
 * What the browser keeps live of a device (`server/subscribeDevices`'s answer to "what is it like
 * now"): its connection state, config, alarm bits, latest OTA update and health, each in the action
 * a change of it is pushed in, read from the device's record. A part the device never reported
 * (no health, no update, no status) is not sent; nor one whose stored value the contract refuses.
 */
export function deviceStateActions(row: DeviceWithPath): DeviceEvent[] {
  const thingName = row.thing_name;
  const candidates: (DeviceEvent | null)[] = [
    {
      type: 'server/connectionState',
      thingName,
      isConnected: row.is_connected === 1,
      lastConnection: row.last_connection,
      lastDisconnection: row.last_disconnection,
    },
    configAction(row),
  ];
  const status = parsed(row.status);
  if (status !== null) candidates.push({ type: 'server/alarms', thingName, status } as DeviceEvent);
  const update = parsed(row.ota_update);
  if (update !== null) {
    candidates.push({
      type: 'server/otaProgress',
      thingName,
      deviceId: row.id,
      update,
      otaPendingSubmittedAt: row.ota_pending_submitted_at,
    } as DeviceEvent);
  }
  const health = parsed(row.health);
  if (health !== null) candidates.push({ type: 'server/health', thingName, health } as DeviceEvent);
  return candidates.filter(
    (action): action is DeviceEvent => action !== null && checks[action.type as keyof typeof checks].Check(action),
  );
}
