import type { Device } from '@fieldlink/api/device';
import {
  DEVICE_TABLE_FORMAT,
  DEVICE_TABLE_NUMBER_FIELDS,
  DEVICE_TABLE_TEXT_FIELDS,
  encodeTextColumn,
  type DeviceTableAnswer,
  type DeviceTableNumberField,
  type DeviceTableTextField,
} from '@fieldlink/api/device-table';
import { countChannels } from '@fieldlink/domain/channels';
import type { DemoDataset } from './demo-dataset';

/** The demo's devices in the device table's columnar answer (`GET /devices/table`). */
export function deviceTableAnswer(dataset: DemoDataset, devices: readonly Device[]): DeviceTableAnswer {
  const groups = [
    { id: dataset.rootId, name: dataset.fleet.accountName, kind: 'root' as const, path: dataset.rootPath },
    ...dataset.groups.map((group) => ({ id: group.id, name: group.name, kind: 'group' as const, path: group.path })),
  ];
  const rows = devices.map((device) => {
    const modem = device.ports.find((port) => port.portType === 'modem') ?? null;
    const health = device.health ?? {};
    const text: Record<DeviceTableTextField, string | null> = {
      id: device.id,
      name: device.name,
      thingName: device.thingName,
      sn: device.sn,
      site: device.site,
      plan: device.plan,
      fw: device.fw,
      model: device.model,
      base: device.base,
      custom: device.custom,
      espFw: device.espFw,
      hw: device.hw,
      hwPlatform: device.hwPlatform,
      updatePoint: device.updatePoint,
      tzName: device.timeDate?.tzName ?? null,
      address: device.location?.address ?? null,
      cmd: modem?.cmd ?? null,
      modemModel: modem?.model ?? null,
      iccid: modem?.iccid ?? null,
      imei: modem?.imei ?? null,
      band: modem?.band ?? null,
      operator: modem?.operator ?? null,
      netType: modem?.netType ?? null,
      cellApn: modem?.cellApn ?? null,
      networkInterface: health.networkInterface ?? null,
      activeAlarms: null,
      otaState: null,
    };
    const numbers: Record<DeviceTableNumberField, number | null> = {
      group: groups.findIndex((group) => group.id === device.groupId),
      isConnected: device.isConnected ? 1 : 0,
      lastConnection: device.lastConnection,
      lastDisconnection: device.lastDisconnection,
      createdAt: device.createdAt,
      channelCount: countChannels(device.channels.map((channel) => channel.code)),
      lat: device.location?.lat ?? null,
      lng: device.location?.lng ?? null,
      signal: health.signal ?? null,
      signalQuality: health.signalQuality ?? null,
      cpuTemp: health.cpuTemp ?? null,
      resets: health.resets ?? null,
      port1Resets: health.port1Resets ?? null,
      networkConnects: health.networkConnects ?? null,
      mqttConnects: health.mqttConnects ?? null,
      healthTime: health.t ?? null,
      supplyVoltage: health.supplyVoltage ?? null,
      errorStatus: health.errorStatus ?? null,
      statusSp: device.status.sp ?? null,
      otaPendingSubmittedAt: null,
      muted: 0,
      pendingMessages: 0,
      otaPercent: null,
    };
    return { text, numbers };
  });
  return {
    format: DEVICE_TABLE_FORMAT,
    generatedAt: Date.now(),
    count: devices.length,
    groups,
    text: Object.fromEntries(
      DEVICE_TABLE_TEXT_FIELDS.map((field) => [field, encodeTextColumn(rows.map((row) => row.text[field]))]),
    ) as DeviceTableAnswer['text'],
    numbers: Object.fromEntries(
      DEVICE_TABLE_NUMBER_FIELDS.map((field) => [field, rows.map((row) => row.numbers[field])]),
    ) as DeviceTableAnswer['numbers'],
  };
}
