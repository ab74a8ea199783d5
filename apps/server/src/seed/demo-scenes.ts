import type { Kysely } from 'kysely';
import type { ArcSegment, PutWidgetBody, YAxis } from '@fieldlink/api/scenes';
import { flowGridLayout, widgetWithDefaults, type WidgetType } from '@fieldlink/domain/widgets';
import type { Database } from '../db/schema';
import { newId } from '../security/secrets';

/**
 * Demo dashboards: one or two scenes on each customer account's root group, built from that
 * account's own demo devices and the channels their plant models report (apps/simulator/src/models),
 * so a fresh installation opens on live dashboards.
 */

type WidgetProps = Omit<PutWidgetBody['widget'], 'id' | 'accountId' | 'groupId' | 'sceneId' | 'type'>;

interface DemoWidget {
  type: WidgetType;
  name: string;
  /** `[thingName, code, channel name]`. */
  channels?: [string, string, string?][];
  /** lg size, when the type's default does not suit. */
  w?: number;
  h?: number;
  props?: Partial<WidgetProps>;
}

interface DemoScene {
  name: string;
  widgets: DemoWidget[];
}

const GOOD = '#2e9d5b';
const WARN = '#e0a526';
const ALARM = '#d64545';

const title = (text: string): DemoWidget => ({ type: 'customText', name: '', h: 3, props: { value: text } });
const arcs = (...segments: [number, string, string][]): ArcSegment[] =>
  segments.map(([endValue, color, text]) => ({ endValue, color, text }));
const axis = (name: string, units: string, channels: string[], min?: number, max?: number): YAxis => ({
  channels,
  name,
  units,
  isDedicated: false,
  hasFixRange: min !== undefined && max !== undefined,
  ...(min !== undefined && { min }),
  ...(max !== undefined && { max }),
});

/** Demo scenes by demo account key (seed/demo-data.ts). */
const DEMO_SCENES: Record<string, DemoScene[]> = {
  brew: [
    {
      name: 'Cellar',
      widgets: [
        title('Cellar: fermenters and bright tank'),
        {
          type: 'chart',
          name: 'Tank temperatures',
          channels: [
            ['NGB-FV01', 'c1', 'FV1 temperature'],
            ['NGB-FV02', 'c1', 'FV2 temperature'],
            ['NGB-BT01', 'c1', 'BT1 temperature'],
          ],
          w: 8,
          props: { units: '°C' },
        },
        {
          type: 'therm',
          name: 'FV1 temperature',
          channels: [['NGB-FV01', 'c1']],
          w: 2,
          h: 12,
          props: { min: -5, max: 40, units: '°C' },
        },
        { type: 'textAndNumber', name: 'FV1 setpoint', channels: [['NGB-FV01', 'sp1']], w: 2, props: { units: '°C' } },
        {
          type: 'radial',
          name: 'FV1 upper pressure',
          channels: [['NGB-FV01', 'c2']],
          w: 3,
          h: 6,
          props: { max: 30, units: 'psi' },
        },
        {
          type: 'radial',
          name: 'FV2 upper pressure',
          channels: [['NGB-FV02', 'c2']],
          w: 3,
          h: 6,
          props: { max: 30, units: 'psi' },
        },
        { type: 'value', name: 'FV1 pH', channels: [['NGB-FV01', 't9']], w: 2, props: { min: 3.5, max: 6 } },
        { type: 'value', name: 'FV1 CO2 flow', channels: [['NGB-FV01', 'a1']], w: 2, props: { units: 'L/min' } },
        { type: 'indicator', name: 'FV1 glycol valve', channels: [['NGB-FV01', 'do1']], w: 2 },
      ],
    },
  ],
  spray: [
    {
      name: 'Spray overview',
      widgets: [
        title('Orchard sprayers'),
        { type: 'tank', name: 'Row 1 tank', channels: [['OSC-SPR01', 'a16']], w: 2, h: 8, props: { units: '%' } },
        { type: 'tank', name: 'Row 2 tank', channels: [['OSC-SPR02', 'a16']], w: 2, h: 8, props: { units: '%' } },
        { type: 'tank', name: 'Row 3 tank', channels: [['OSC-SPR03', 'a16']], w: 2, h: 8, props: { units: '%' } },
        {
          type: 'radial',
          name: 'Row 1 pump pressure',
          channels: [['OSC-SPR01', 'c1']],
          w: 3,
          h: 8,
          props: {
            max: 6,
            units: 'bar',
            arcSegments: arcs([3, WARN, 'Low'], [5, GOOD, 'Spraying'], [6, ALARM, 'High']),
          },
        },
        { type: 'value', name: 'Row 1 spray count', channels: [['OSC-SPR01', 't1']], w: 3, h: 4 },
        {
          type: 'chart',
          name: 'Tank levels',
          channels: [
            ['OSC-SPR01', 'a16', 'Row 1'],
            ['OSC-SPR02', 'a16', 'Row 2'],
            ['OSC-SPR03', 'a16', 'Row 3'],
          ],
          w: 8,
          props: { yAxis: [axis('Tank level', '%', ['OSC-SPR01:a16', 'OSC-SPR02:a16', 'OSC-SPR03:a16'], 0, 100)] },
        },
        { type: 'switch', name: 'Row 1 zone 1', channels: [['OSC-SPR01', 'do1']], w: 2, props: { activeColor: GOOD } },
        { type: 'switch', name: 'Row 1 zone 2', channels: [['OSC-SPR01', 'do2']], w: 2, props: { activeColor: GOOD } },
        {
          type: 'upDownControl',
          name: 'Row 1 spray duration',
          channels: [['OSC-SPR01', 'sp1']],
          w: 2,
          props: { increment: 5, units: 's' },
        },
        { type: 'indicator', name: 'Row 2 zone 1', channels: [['OSC-SPR02', 'do1']], w: 2 },
      ],
    },
    {
      name: 'Pump house',
      widgets: [
        title('Pump house'),
        { type: 'chart', name: 'Line pressure', channels: [['OSC-PUMP01', 'c2']], w: 8, props: { units: 'bar' } },
        {
          type: 'radial',
          name: 'Pump flow',
          channels: [['OSC-PUMP01', 'c3']],
          w: 4,
          h: 6,
          props: { max: 45, units: 'L/min' },
        },
        { type: 'switch', name: 'Pump', channels: [['OSC-PUMP01', 'do2']], w: 2 },
        {
          type: 'textAndNumber',
          name: 'Pressure setpoint',
          channels: [['OSC-PUMP01', 'sp2']],
          w: 2,
          props: { units: 'bar' },
        },
      ],
    },
  ],
  stock: [
    {
      name: 'Main Street shelves',
      widgets: [
        title('Main Street Store: shelf A1'),
        ...(['c1', 'c2', 'c3', 'c4'] as const).map((code, index): DemoWidget => ({
          type: 'verticalBar',
          name: `Product ${index + 1}`,
          channels: [['CRS-SHELF01', code]],
          w: 3,
          h: 6,
          props: { max: 30, units: 'items' },
        })),
        {
          type: 'chart',
          name: 'Shelf A1 stock',
          channels: [
            ['CRS-SHELF01', 'c1', 'Product 1'],
            ['CRS-SHELF01', 'c2', 'Product 2'],
            ['CRS-SHELF01', 'c3', 'Product 3'],
            ['CRS-SHELF01', 'c4', 'Product 4'],
          ],
          w: 12,
          props: { units: 'items' },
        },
      ],
    },
  ],
  filtec: plantScenes('Lakeside', 'FTW-PLANT01', 180),
  filtecMoe: plantScenes('Township', 'MTW-PLANT01', 100),
  default: [
    {
      name: 'Boiler room',
      widgets: [
        title('Boiler room'),
        {
          type: 'chart',
          name: 'Room temperatures',
          channels: [
            ['ACME-BLR01', 'c1', 'Boiler 1'],
            ['ACME-BLR02', 'c1', 'Boiler 2'],
          ],
          w: 8,
          props: { units: '°C' },
        },
        {
          type: 'radial',
          name: 'Boiler 1 line pressure',
          channels: [['ACME-BLR01', 'c2']],
          w: 4,
          h: 6,
          props: { max: 7, units: 'bar', arcSegments: arcs([1, WARN, 'Low'], [5, GOOD, 'Normal'], [7, ALARM, 'High']) },
        },
        {
          type: 'value',
          name: 'Boiler 1 pump flow',
          channels: [['ACME-BLR01', 'c3']],
          w: 2,
          h: 6,
          props: { max: 45, units: 'L/min' },
        },
        {
          type: 'textAndNumber',
          name: 'Boiler 1 humidity',
          channels: [['ACME-BLR01', 'c4']],
          w: 2,
          h: 6,
          props: { units: '%' },
        },
        {
          type: 'switch',
          name: 'Boiler 1 heater',
          channels: [['ACME-BLR01', 'do1']],
          w: 2,
          props: { activeColor: ALARM },
        },
        {
          type: 'indicator',
          name: 'Boiler 1 pump',
          channels: [['ACME-BLR01', 'do2']],
          w: 2,
          props: { activeColor: GOOD },
        },
        {
          type: 'upDownControl',
          name: 'Boiler 1 heating setpoint',
          channels: [['ACME-BLR01', 'sp1']],
          w: 2,
          props: { min: 5, max: 35, increment: 0.5, units: '°C' },
        },
        { type: 'indicator', name: 'Boiler 1 door', channels: [['ACME-BLR01', 'd1']], w: 2 },
        {
          type: 'value',
          name: 'Boiler 2 pumped volume',
          channels: [['ACME-BLR02', 't1']],
          w: 2,
          props: { units: 'L' },
        },
        {
          type: 'switch',
          name: 'Boiler 2 heater',
          channels: [['ACME-BLR02', 'do1']],
          w: 2,
          props: { activeColor: ALARM },
        },
      ],
    },
    {
      name: 'Cold store',
      widgets: [
        title('Cold store'),
        {
          type: 'chart',
          name: 'Room temperatures',
          channels: [
            ['ACME-COLD01', 'c1', 'Freezer room'],
            ['ACME-COLD02', 'c1', 'Chiller room'],
          ],
          w: 8,
          props: { units: '°C' },
        },
        {
          type: 'therm',
          name: 'Freezer room',
          channels: [['ACME-COLD01', 'c1']],
          w: 2,
          h: 12,
          props: { min: -10, max: 45, units: '°C' },
        },
        {
          type: 'progressBar',
          name: 'Freezer humidity',
          channels: [['ACME-COLD01', 'c4']],
          w: 2,
          props: { units: '%' },
        },
        { type: 'switch', name: 'Chiller pump', channels: [['ACME-COLD02', 'do2']], w: 2 },
        { type: 'indicator', name: 'Freezer door', channels: [['ACME-COLD01', 'd1']], w: 2 },
      ],
    },
  ],
};

/** A water plant's dashboard (§9: flow axis 0-180 in the main plant, inlet 4.8/5/6, outlet 1/1.2). */
function plantScenes(site: string, plant: string, flowMax: number): DemoScene[] {
  return [
    {
      name: `${site} plant`,
      widgets: [
        title(`${site} treatment plant`),
        {
          type: 'chart',
          name: 'Supply flow',
          channels: [[plant, 'a1', 'Supply 1 flow']],
          w: 8,
          props: { yAxis: [axis('Flow', 'L/min', [`${plant}:a1`], 0, flowMax)] },
        },
        { type: 'tank', name: 'Tank level', channels: [[plant, 'a16']], w: 4, h: 12, props: { units: '%' } },
        {
          type: 'radial',
          name: 'Inlet pressure',
          channels: [[plant, 'c2']],
          w: 3,
          h: 6,
          props: {
            max: 6,
            units: 'bar',
            arcSegments: arcs([4.8, GOOD, 'Good'], [5, WARN, 'Warning'], [6, ALARM, 'Alarm']),
          },
        },
        {
          type: 'radial',
          name: 'Outlet pressure',
          channels: [[plant, 'c3']],
          w: 3,
          h: 6,
          props: {
            max: 3,
            units: 'bar',
            arcSegments: arcs([1, ALARM, 'Fault'], [1.2, WARN, 'Warning'], [3, GOOD, 'Good']),
          },
        },
        { type: 'value', name: 'UV dose', channels: [[plant, 't5']], w: 2, h: 6, props: { max: 300, units: 'mJ/cm²' } },
        { type: 'value', name: 'Supply 1 total', channels: [[plant, 'd1']], w: 2, h: 6, props: { units: 'm³' } },
        { type: 'switch', name: 'Plant run', channels: [[plant, 'do1']], w: 2, props: { activeColor: GOOD } },
        { type: 'value', name: 'Operating time', channels: [[plant, 't1']], w: 2, props: { units: 'h' } },
      ],
    },
  ];
}

/** The stored props of a demo widget, with §3's defaults. */
function widgetProps(widget: DemoWidget, deviceIds: ReadonlyMap<string, string>): WidgetProps {
  const channels = (widget.channels ?? []).map(([thingName, code, name]) => {
    const deviceId = deviceIds.get(thingName);
    if (!deviceId) throw new Error(`Demo scene names ${thingName}, which is not a device of its account`);
    return { deviceId, code, ...(name !== undefined && { name }), legendVisibility: true };
  });
  const props = widget.props ?? {};
  const { type: _type, ...defaulted } = widgetWithDefaults({
    type: widget.type,
    name: widget.name,
    doesInheritName: false,
    channels,
    arcSegments: [],
    annotations: [],
    ...props,
    // Axis channels are written `{thingName}:{code}` above; stored as `{deviceId}:{code}`.
    yAxis: (props.yAxis ?? []).map((entry) => ({
      ...entry,
      channels: entry.channels.map((channel) => {
        const [thingName = '', code = ''] = channel.split(':');
        return `${deviceIds.get(thingName) ?? thingName}:${code}`;
      }),
    })),
  });
  return defaulted;
}

/** Adds the demo scenes of a demo account (by key) to its root group. */
export async function addDemoScenes(
  db: Kysely<Database>,
  accountKey: string,
  accountId: string,
  rootGroupId: string,
  now: number,
): Promise<void> {
  const scenes = DEMO_SCENES[accountKey] ?? [];
  if (scenes.length === 0) return;
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'thing_name'])
    .where('account_id', '=', accountId)
    .execute();
  const deviceIds = new Map(devices.map((device) => [device.thing_name, device.id]));
  for (const [position, scene] of scenes.entries()) {
    const sceneId = newId();
    const widgets = scene.widgets.map((widget) => ({ ...widget, id: newId() }));
    await db
      .insertInto('scenes')
      .values({
        id: sceneId,
        group_id: rootGroupId,
        name: scene.name,
        type: 'grid',
        position,
        is_grid_locked: 0,
        grid_layout: JSON.stringify(flowGridLayout(widgets)),
        created_at: now,
      })
      .execute();
    for (const [index, widget] of widgets.entries()) {
      await db
        .insertInto('widgets')
        .values({
          id: widget.id,
          scene_id: sceneId,
          type: widget.type,
          props: JSON.stringify(widgetProps(widget, deviceIds)),
          // One millisecond apart, so the widgets keep their order.
          created_at: now + index,
          updated_at: now + index,
        })
        .execute();
    }
  }
}
