import { describe, expect, it } from 'vitest';
import { plantAlarmChannels, plantScenes } from './plant-scenes';

const device = (value: string) => ({
  id: 'dev1',
  thingName: 'PLANT_1',
  tags: [{ key: 'filtecMoeConfig', value }],
  custom: 'Filtec 2.1',
});

describe('plantScenes', () => {
  it('makes one read-only scene per section under the generated-widget account id', () => {
    const scenes = plantScenes('filtec moe', device('waterTank,media'), 'g1');
    expect(scenes.map((s) => s.section)).toEqual(['Water', 'UV', 'Pressure', 'Multimedia Filters', 'Alarms', 'Resets']);
    for (const { scene } of scenes) {
      expect(scene).toMatchObject({ accountId: '3', groupId: 'g1', readOnly: true, isGridLocked: true });
      expect(scene.gridLayout.lg?.map((item) => item.i)).toEqual(scene.widgets.map((w) => w.id));
      for (const widget of scene.widgets) {
        expect(widget.path).toBe(`g1|scene:${scene.id}|widget:${widget.id}`);
        for (const channel of widget.channels) expect(channel.deviceId).toBe('dev1');
      }
    }
  });

  it('puts the device’s channels on the fixed axes of §9', () => {
    const water = plantScenes('filtec moe', device('waterTank'), 'g1')[0]!.scene;
    const flow = water.widgets.find((w) => w.id === 'supply1FlowChart')!;
    expect(flow.yAxis).toEqual([
      { channels: ['dev1:a1'], name: 'Flow', units: 'L/min', isDedicated: false, hasFixRange: true, min: 0, max: 100 },
    ]);
    const tank = water.widgets.find((w) => w.id === 'tankLevel')!;
    expect([tank.type, tank.min, tank.max, tank.units]).toEqual(['tank', 0, 100, '%']);
  });

  it('follows the configuration tag: a new feature adds its section', () => {
    const before = plantScenes('filtec moe', device('waterTank'), 'g1').map((s) => s.section);
    const after = plantScenes('filtec moe', device('waterTank,greensand'), 'g1').map((s) => s.section);
    expect(before).not.toContain('Greensand Filters');
    expect(after).toContain('Greensand Filters');
  });

  it('puts the active alarms first in the Alarms section and groups the normal ones after them', () => {
    const alarms = (active: ReadonlySet<string>) =>
      plantScenes('filtec moe', device('waterTank'), 'g1', active).find((s) => s.section === 'Alarms')!;
    const calm = alarms(new Set());
    expect(calm.scene.widgets).toEqual([]);
    expect(calm.normal?.widgets.map((w) => w.id)).toContain('alarm-s4');
    const raised = alarms(new Set(['s4', 's5']));
    expect(raised.scene.widgets.map((w) => w.id)).toEqual(['alarm-s4', 'alarm-s5']);
    expect(raised.scene.gridLayout.lg?.map((item) => item.i)).toEqual(['alarm-s4', 'alarm-s5']);
    expect(raised.normal?.widgets.map((w) => w.id)).not.toContain('alarm-s4');
    expect(raised.normal!.widgets.length + 2).toBe(calm.normal!.widgets.length);
    // The status line reads every flag the section shows, active or not.
    expect(
      plantAlarmChannels([raised])
        .map((a) => a.code)
        .sort(),
    ).toEqual(calm.normal!.widgets.map((w) => w.channels[0]!.code).sort());
    expect(plantAlarmChannels([raised])).toContainEqual({ code: 's4', name: 'UV dose low' });
  });
});
