import { describe, expect, it } from 'vitest';
import { demoFleet, demoFleetDevices } from '@fieldlink/simulation/demo-fleet';
import { WATER_PLANT_CHANNELS } from '@fieldlink/simulation/water-plant';
import type { DeviceSnapshot } from '../worker/protocol';
import { buildDataset } from './demo-dataset';
import { demoScenes } from './demo-scenes';

const fleet = demoFleet('filtec');
const [device] = demoFleetDevices(fleet);
/** A water plant's snapshot: its channels are all the dashboard reads. */
const snapshot = { thingName: device!.thingName, channels: WATER_PLANT_CHANNELS } as unknown as DeviceSnapshot;

describe('the demo dashboard of a water plant', () => {
  const [scene] = demoScenes(buildDataset(fleet), [snapshot]);
  const widgets = scene!.widgets.map(({ type, channels }) => ({ type, codes: channels.map(({ code }) => code) }));

  it('shows its relay as an indicator, not the supply total counted on a digital input (d1, m³)', () => {
    expect(widgets.filter(({ type }) => type === 'indicator')).toEqual([{ type: 'indicator', codes: ['do1'] }]);
  });

  it('charts and shows its first input or auxiliary channel with a unit as its main reading', () => {
    expect(widgets.filter(({ type }) => type === 'chart' || type === 'value').map(({ codes }) => codes)).toEqual([
      ['a1'],
      ['a1'],
    ]);
  });
});
