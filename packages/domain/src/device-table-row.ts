import { toMillis } from './timestamps';

/**
 * One device's line of the device table (core §2), assembled once for the server (from a stored row)
 * and the browser demo (from a simulated device's record): which port is the modem, which zone it
 * keeps, which health fields count, what an unset plan reads. The JSON-held parts come in as read
 * (unknown shapes are tolerated: a field of the wrong type is empty, never an error), so a damaged
 * device record spoils its own cells and nothing else.
 */

/** What a device brings to its line; the JSON-held parts as parsed (or null). */
export interface DeviceTableSource {
  id: string;
  name: string;
  thingName: string;
  sn: string | null;
  site: string | null;
  plan: string | null;
  fw: string | null;
  model: string | null;
  base: string | null;
  custom: string | null;
  espFw: string | null;
  hw: string | null;
  hwPlatform: string | null;
  updatePoint: string | null;
  timeDate: { readonly tzName?: unknown } | null;
  health: Readonly<Record<string, unknown>> | null;
  ports: readonly Readonly<Record<string, unknown>>[];
  location: { readonly lat?: unknown; readonly lng?: unknown; readonly address?: unknown } | null;
  status: { readonly sp?: unknown } | null;
  otaUpdate: { readonly state?: unknown; readonly percent?: unknown } | null;
  isConnected: boolean;
  lastConnection: number | null;
  lastDisconnection: number | null;
  createdAt: number;
  otaPendingSubmittedAt: number | null;
  /** Its channels (codes starting with `c`, domain `countChannels`). */
  channelCount: number;
  /** Index of its group in the answer's group list. */
  group: number;
  /** Muted by the reader. */
  muted: boolean;
  pendingMessages: number;
  /** Its active alarms as the table shows them, or null. */
  activeAlarms: string | null;
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The port a device's cellular columns read: its modem port, else its first port. */
export function modemPort<P extends Readonly<Record<string, unknown>>>(ports: readonly P[]): P | null {
  return ports.find((port) => port.portType === 'modem') ?? ports[0] ?? null;
}

/**
 * A device's line: its text cells and its number cells, keyed by the table's fields (the API's
 * `DEVICE_TABLE_TEXT_FIELDS` and `DEVICE_TABLE_NUMBER_FIELDS`). The zone is the one set on the device,
 * else the one it reports; the health time is in unix milliseconds whatever the device sent.
 */
export function deviceTableRow(device: DeviceTableSource) {
  const health = device.health ?? {};
  const modem = modemPort(device.ports);
  const healthTime = finite(health.t);
  const text = {
    id: device.id,
    name: device.name,
    thingName: device.thingName,
    sn: device.sn,
    site: device.site,
    plan: device.plan === 'PREMIUM' ? 'PREMIUM' : 'FREE',
    fw: device.fw,
    model: device.model,
    base: device.base,
    custom: device.custom,
    espFw: device.espFw,
    hw: device.hw,
    hwPlatform: device.hwPlatform,
    updatePoint: device.updatePoint,
    tzName: textOrNull(device.timeDate?.tzName) ?? textOrNull(health.currentTimeZone),
    address: textOrNull(device.location?.address),
    cmd: textOrNull(modem?.cmd),
    modemModel: textOrNull(modem?.model),
    iccid: textOrNull(modem?.iccid),
    imei: textOrNull(modem?.imei),
    band: textOrNull(modem?.band),
    operator: textOrNull(modem?.operator),
    netType: textOrNull(modem?.netType),
    cellApn: textOrNull(modem?.cellApn),
    networkInterface: textOrNull(health.networkInterface),
    activeAlarms: textOrNull(device.activeAlarms),
    otaState: textOrNull(device.otaUpdate?.state),
  } satisfies Record<string, string | null>;
  const numbers = {
    group: device.group,
    isConnected: device.isConnected ? 1 : 0,
    lastConnection: device.lastConnection,
    lastDisconnection: device.lastDisconnection,
    createdAt: device.createdAt,
    channelCount: device.channelCount,
    lat: finite(device.location?.lat),
    lng: finite(device.location?.lng),
    signal: finite(health.signal),
    signalQuality: finite(health.signalQuality),
    cpuTemp: finite(health.cpuTemp),
    resets: finite(health.resets),
    port1Resets: finite(health.port1Resets),
    networkConnects: finite(health.networkConnects),
    mqttConnects: finite(health.mqttConnects),
    healthTime: healthTime === null ? null : toMillis(healthTime),
    supplyVoltage: finite(health.supplyVoltage),
    errorStatus: finite(health.errorStatus),
    statusSp: finite(device.status?.sp),
    otaPendingSubmittedAt: device.otaPendingSubmittedAt,
    muted: device.muted ? 1 : 0,
    pendingMessages: device.pendingMessages,
    otaPercent: finite(device.otaUpdate?.percent),
  } satisfies Record<string, number | null>;
  return { text, numbers };
}
