import { describe, expect, it } from 'vitest';
import { account, device, group, widget } from './fixtures';
import { indexDevices, resolveChannels, sceneDeviceIds, widgetTitle } from './resolve-channels';

const pump = device('d1', [{ code: 'a1', name: 'Flow' }, { code: 'c2' }, { code: 'sp3', name: '  ' }], 'Pump');
const tank = device('d2', [], 'Tank');
const binned = device('d9', [{ code: 'a1', name: 'Gone' }], 'Binned');
const tree = [
  account(
    group('root', {
      kind: 'root',
      devices: [pump],
      groups: [group('g1', { devices: [tank] }), group('trash', { kind: 'trash', devices: [binned] })],
    }),
  ),
];
const devices = indexDevices(tree);

describe('resolveChannels', () => {
  it('names a channel by the widget, else the device, else the display name of its code', () => {
    const resolved = resolveChannels(
      widget('w1', {
        channels: [
          { deviceId: 'd1', code: 'a1' },
          { deviceId: 'd1', code: 'c2', legendVisibility: false },
          { deviceId: 'd1', code: 'sp3' },
          { deviceId: 'd2', code: 't4', name: 'Totaliser' },
        ],
      }),
      devices,
    );
    expect(resolved).toEqual([
      {
        deviceId: 'd1',
        thingName: 'T_d1',
        deviceName: 'Pump',
        code: 'a1',
        name: 'Flow',
        units: '',
        legendVisibility: true,
      },
      {
        deviceId: 'd1',
        thingName: 'T_d1',
        deviceName: 'Pump',
        code: 'c2',
        name: 'Ch_2',
        units: '',
        legendVisibility: false,
      },
      {
        deviceId: 'd1',
        thingName: 'T_d1',
        deviceName: 'Pump',
        code: 'sp3',
        name: 'SP_3',
        units: '',
        legendVisibility: true,
      },
      {
        deviceId: 'd2',
        thingName: 'T_d2',
        deviceName: 'Tank',
        code: 't4',
        name: 'Totaliser',
        units: '',
        legendVisibility: true,
      },
    ]);
  });

  it('matches a device channel written another way (SP-3 and sp3)', () => {
    const withHyphen = indexDevices([
      account(group('root', { devices: [device('d5', [{ code: 'SP-3', name: 'Cellar' }])] })),
    ]);
    expect(resolveChannels(widget('w', { channels: [{ deviceId: 'd5', code: 'sp3' }] }), withHyphen)[0]?.name).toBe(
      'Cellar',
    );
  });

  it('keeps a channel whose device is gone (or in the trash), without a thing name', () => {
    const [gone, trashed] = resolveChannels(
      widget('w', {
        channels: [
          { deviceId: 'nope', code: 'a1' },
          { deviceId: 'd9', code: 'a1' },
        ],
      }),
      devices,
    );
    expect(gone).toMatchObject({ thingName: null, deviceName: 'Unavailable device', name: 'Aux_1' });
    expect(trashed).toMatchObject({ thingName: null, name: 'Aux_1' });
  });
});

describe('widgetTitle', () => {
  const channels = resolveChannels(widget('w', { channels: [{ deviceId: 'd1', code: 'a1' }] }), devices);
  it('is the first channel name when the widget inherits its name', () => {
    expect(widgetTitle({ name: 'Gauge', doesInheritName: true }, channels)).toBe('Flow');
  });
  it('is the widget name otherwise, or when there is no channel', () => {
    expect(widgetTitle({ name: 'Gauge', doesInheritName: false }, channels)).toBe('Gauge');
    expect(widgetTitle({ name: 'Gauge', doesInheritName: true }, [])).toBe('Gauge');
  });
});

describe('scene devices', () => {
  const widgets = [
    widget('w1', {
      channels: [
        { deviceId: 'd2', code: 'a1' },
        { deviceId: 'd1', code: 'a1' },
      ],
    }),
    widget('w2', {
      channels: [
        { deviceId: 'd1', code: 'c2' },
        { deviceId: 'gone', code: 'a1' },
      ],
    }),
  ];
  it('lists each device in the tree once, in first-use order', () => {
    expect(sceneDeviceIds(widgets, devices)).toEqual(['d2', 'd1']);
  });
});
