import { describe, expect, it } from 'vitest';
import { deviceTableRow, modemPort, type DeviceTableSource } from './device-table-row';

const source = (values: Partial<DeviceTableSource> = {}): DeviceTableSource => ({
  id: 'dev-1',
  name: 'Pump 1',
  thingName: 'pump-1',
  sn: 'SN1',
  site: 'North',
  plan: 'PREMIUM',
  fw: '7.52',
  model: 'FL-4',
  base: 'BREW 1.2',
  custom: 'Vats 4.2',
  espFw: null,
  hw: 'FL4 rev B',
  hwPlatform: null,
  updatePoint: null,
  timeDate: { tzName: 'Europe/Paris' },
  health: { signal: -71, signalQuality: 18, t: 1_700_000_000, networkInterface: 'cellular', currentTimeZone: 'UTC' },
  ports: [{ portType: 'modem', cmd: 'AT', model: 'BG96', iccid: '8944', imei: '3566', band: 'B20' }],
  location: { lat: 48.85, lng: 2.35, address: '1 Rue de Rivoli' },
  status: { sp: 6 },
  otaUpdate: null,
  isConnected: true,
  lastConnection: 1_700_000_000_000,
  lastDisconnection: null,
  createdAt: 1_600_000_000_000,
  otaPendingSubmittedAt: null,
  channelCount: 4,
  group: 2,
  muted: false,
  pendingMessages: 0,
  activeAlarms: null,
  ...values,
});

describe('a device’s line of the device table', () => {
  it('reads every cell of a complete device', () =>
    expect(deviceTableRow(source())).toEqual({
      text: {
        id: 'dev-1',
        name: 'Pump 1',
        thingName: 'pump-1',
        sn: 'SN1',
        site: 'North',
        plan: 'PREMIUM',
        fw: '7.52',
        model: 'FL-4',
        base: 'BREW 1.2',
        custom: 'Vats 4.2',
        espFw: null,
        hw: 'FL4 rev B',
        hwPlatform: null,
        updatePoint: null,
        tzName: 'Europe/Paris',
        address: '1 Rue de Rivoli',
        cmd: 'AT',
        modemModel: 'BG96',
        iccid: '8944',
        imei: '3566',
        band: 'B20',
        operator: null,
        netType: null,
        cellApn: null,
        networkInterface: 'cellular',
        activeAlarms: null,
        otaState: null,
      },
      numbers: {
        group: 2,
        isConnected: 1,
        lastConnection: 1_700_000_000_000,
        lastDisconnection: null,
        createdAt: 1_600_000_000_000,
        channelCount: 4,
        lat: 48.85,
        lng: 2.35,
        signal: -71,
        signalQuality: 18,
        cpuTemp: null,
        resets: null,
        port1Resets: null,
        networkConnects: null,
        mqttConnects: null,
        healthTime: 1_700_000_000_000,
        supplyVoltage: null,
        errorStatus: null,
        statusSp: 6,
        otaPendingSubmittedAt: null,
        muted: 0,
        pendingMessages: 0,
        otaPercent: null,
      },
    }));

  it.each<[string, Partial<DeviceTableSource>, Record<string, unknown>]>([
    ['a plan other than PREMIUM reads FREE', { plan: 'TRIAL' }, { plan: 'FREE' }],
    ['no plan reads FREE', { plan: null }, { plan: 'FREE' }],
    ['no zone set: the zone it reports', { timeDate: null }, { tzName: 'UTC' }],
    ['an empty zone set: the zone it reports', { timeDate: { tzName: '' } }, { tzName: 'UTC' }],
    ['no zone at all', { timeDate: null, health: {} }, { tzName: null }],
    [
      'no modem port: the first port',
      { ports: [{ portType: 'rs485', model: 'X1' }, { portType: 'eth' }] },
      { modemModel: 'X1' },
    ],
    ['no ports', { ports: [] }, { cmd: null, modemModel: null }],
    ['a cell of the wrong type is empty', { location: { address: 12 } }, { address: null }],
    [
      'active alarms and an update',
      { activeAlarms: 'Pressure high', otaUpdate: { state: 'QUEUED' } },
      {
        activeAlarms: 'Pressure high',
        otaState: 'QUEUED',
      },
    ],
  ])('text: %s', (_name, values, cells) => expect(deviceTableRow(source(values)).text).toMatchObject(cells));

  it.each<[string, Partial<DeviceTableSource>, Record<string, unknown>]>([
    ['health time in milliseconds stays', { health: { t: 1_700_000_000_123 } }, { healthTime: 1_700_000_000_123 }],
    ['no health: empty cells', { health: null }, { signal: null, healthTime: null }],
    [
      'a reading that is not a finite number is empty',
      { health: { signal: 'strong', cpuTemp: Infinity } },
      {
        signal: null,
        cpuTemp: null,
      },
    ],
    [
      'offline, muted, messages waiting',
      { isConnected: false, muted: true, pendingMessages: 3 },
      {
        isConnected: 0,
        muted: 1,
        pendingMessages: 3,
      },
    ],
    ['an update in progress', { otaUpdate: { state: 'DOWNLOADING', percent: 40 } }, { otaPercent: 40 }],
    ['no status register', { status: null }, { statusSp: null }],
  ])('numbers: %s', (_name, values, cells) => expect(deviceTableRow(source(values)).numbers).toMatchObject(cells));

  it.each([
    [[], null],
    [[{ portType: 'eth' }], { portType: 'eth' }],
    [[{ portType: 'eth' }, { portType: 'modem' }], { portType: 'modem' }],
  ])('modem port of %j', (ports, port) => expect(modemPort(ports)).toEqual(port));
});
