import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { ServerAction } from '@fieldlink/api/realtime';
import type { DeviceWithPath } from '../features/devices/repository';
import { deviceStateActions } from './device-state';

/** A device's record as the hub reads it, with only the fields its state is made of. */
const record = (fields: Partial<DeviceWithPath> = {}) =>
  ({
    id: 'd1',
    thing_name: 'STATE-01',
    is_connected: 1,
    last_connection: 1_700_000_000_000,
    last_disconnection: null,
    sn: 'SN-1',
    fw: '2.1',
    model: null,
    hw: null,
    base: null,
    custom: null,
    esp_fw: null,
    hw_platform: null,
    update_point: null,
    upload_interval: 15,
    log_interval: 60,
    expanded_io_max: null,
    time_date: JSON.stringify({ tzName: 'Europe/Berlin', tzRule: 'CET-1CEST,M3.5.0,M10.5.0/3' }),
    channels: JSON.stringify([{ code: 'c1', name: 'Pressure', units: 'bar' }]),
    registers: JSON.stringify({ '40': 2 }),
    ports: null,
    status: null,
    health: null,
    ota_update: null,
    ota_pending_submitted_at: null,
    ...fields,
  }) as DeviceWithPath;

describe('deviceStateActions', () => {
  it('sends the connection state and config of a device that reported nothing else', () => {
    const actions = deviceStateActions(record());
    expect(actions).toEqual([
      {
        type: 'server/connectionState',
        thingName: 'STATE-01',
        isConnected: true,
        lastConnection: 1_700_000_000_000,
        lastDisconnection: null,
      },
      {
        type: 'server/deviceConfig',
        thingName: 'STATE-01',
        config: {
          subtype: 'device',
          sn: 'SN-1',
          fw: '2.1',
          uploadInterval: 15,
          logInterval: 60,
          timeDate: { tzName: 'Europe/Berlin', tzRule: 'CET-1CEST,M3.5.0,M10.5.0/3' },
          channels: [{ code: 'c1', name: 'Pressure', units: 'bar' }],
          registers: { '40': 2 },
        },
      },
    ]);
  });

  it('adds alarm bits, the latest update and health once the device has them, each in the contract’s shape', () => {
    const update = {
      id: 'u1',
      rolloutId: 'r1',
      state: 'SENT',
      percent: 40,
      updateCommand: 'fw 2.2',
      submittedAt: 1_700_000_000_000,
      finishedAt: null,
      error: null,
      fw: null,
    };
    const actions = deviceStateActions(
      record({
        status: JSON.stringify({ sp: 4 }),
        health: JSON.stringify({ t: 1_700_000_000_000, mi: 3 }),
        ota_update: JSON.stringify(update),
        ota_pending_submitted_at: null,
      }),
    );
    expect(actions.map((action) => action.type)).toEqual([
      'server/connectionState',
      'server/deviceConfig',
      'server/alarms',
      'server/otaProgress',
      'server/health',
    ]);
    expect(actions[2]).toEqual({ type: 'server/alarms', thingName: 'STATE-01', status: { sp: 4 } });
    for (const action of actions) expect(Value.Check(ServerAction, action)).toBe(true);
  });

  it('leaves out a config field the contract refuses, and a part it refuses, keeping the rest', () => {
    const actions = deviceStateActions(
      record({ channels: JSON.stringify([{ code: 'c1', colour: 'red' }]), health: JSON.stringify({ mi: 'lots' }) }),
    );
    expect(actions.map((action) => action.type)).toEqual(['server/connectionState', 'server/deviceConfig']);
    const config = actions[1]!.type === 'server/deviceConfig' ? actions[1]!.config : null;
    expect(config).not.toHaveProperty('channels');
    expect(config).toMatchObject({ registers: { '40': 2 }, uploadInterval: 15 });
  });
});
