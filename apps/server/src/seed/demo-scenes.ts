import type { Kysely } from 'kysely';
import type { ArcSegment, YAxis } from '@fieldlink/api/scenes';
import { FLOW_AXIS_MAX, TANK_LEVEL_RANGE, type PlantAppType } from '@fieldlink/domain/plant-dashboard';
import { DEMO_ACCOUNT_KIND } from '@fieldlink/domain/demo';
import { fleetOverview, type OverviewChannel } from '@fieldlink/domain/fleet-overview';
import { flowGridLayout, widgetWithDefaults, type WidgetType } from '@fieldlink/domain/widgets';
import { MAX_PRODUCT_CAPACITY } from '@fieldlink/simulation/retail-shelf';
import type { Database } from '../db/schema';
import { insertScene, insertWidget, type WidgetProps } from '../features/scenes/repository';
import { newId } from '../security/secrets';

/**
 * Demo dashboards: one or two scenes on each customer account's root group, built from that
 * account's own demo devices and the channels their plant models report (packages/simulation),
 * so a fresh installation opens on live dashboards.
 */

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
/** A widget of one channel, `[w, h]` its lg size (the type's default height when `h` is left out). */
const single = (
  type: WidgetType,
  name: string,
  thingName: string,
  code: string,
  [w, h]: [number, number?],
  props?: Partial<WidgetProps>,
): DemoWidget => ({ type, name, channels: [[thingName, code]], w, h, props });
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
        single('therm', 'FV1 temperature', 'NGB-FV01', 'c1', [2, 12], { min: -5, max: 40, units: '°C' }),
        single('textAndNumber', 'FV1 setpoint', 'NGB-FV01', 'sp1', [2], { units: '°C' }),
        single('radial', 'FV1 upper pressure', 'NGB-FV01', 'c2', [3, 6], { max: 30, units: 'psi' }),
        single('radial', 'FV2 upper pressure', 'NGB-FV02', 'c2', [3, 6], { max: 30, units: 'psi' }),
        single('value', 'FV1 pH', 'NGB-FV01', 't9', [2], { min: 3.5, max: 6 }),
        single('value', 'FV1 CO2 flow', 'NGB-FV01', 'a1', [2], { units: 'L/min' }),
        single('indicator', 'FV1 glycol valve', 'NGB-FV01', 'do1', [2]),
      ],
    },
  ],
  spray: [
    {
      name: 'Spray overview',
      widgets: [
        title('Orchard sprayers'),
        single('tank', 'Row 1 tank', 'OSC-SPR01', 'a16', [2, 8], { units: '%' }),
        single('tank', 'Row 2 tank', 'OSC-SPR02', 'a16', [2, 8], { units: '%' }),
        single('tank', 'Row 3 tank', 'OSC-SPR03', 'a16', [2, 8], { units: '%' }),
        single('radial', 'Row 1 pump pressure', 'OSC-SPR01', 'c1', [3, 8], {
          max: 6,
          units: 'bar',
          arcSegments: arcs([3, WARN, 'Low'], [5, GOOD, 'Spraying'], [6, ALARM, 'High']),
        }),
        single('value', 'Row 1 sprays today', 'OSC-SPR01', 't6', [3, 4]),
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
        single('switch', 'Row 1 zone 1', 'OSC-SPR01', 'do1', [2], { activeColor: GOOD }),
        single('switch', 'Row 1 zone 2', 'OSC-SPR01', 'do2', [2], { activeColor: GOOD }),
        single('upDownControl', 'Row 1 duration step', 'OSC-SPR01', 'sp1', [2], { increment: 5, units: 's' }),
        single('indicator', 'Row 2 zone 1', 'OSC-SPR02', 'do1', [2]),
        single('mosnixManualSpray', 'Row 2 manual spray', 'OSC-SPR02', 'gpf1', [2]),
      ],
    },
    {
      name: 'Pump house',
      widgets: [
        title('Pump house'),
        single('chart', 'Line pressure', 'OSC-PUMP01', 'c2', [8], { units: 'bar' }),
        single('radial', 'Pump flow', 'OSC-PUMP01', 'c3', [4, 6], { max: 45, units: 'L/min' }),
        single('switch', 'Pump', 'OSC-PUMP01', 'do2', [2]),
        single('textAndNumber', 'Pressure setpoint', 'OSC-PUMP01', 'sp2', [2], { units: 'bar' }),
      ],
    },
  ],
  stock: [
    {
      name: 'Main Street shelves',
      widgets: [
        title('Main Street Store: shelf A1'),
        ...['c1', 'c2', 'c3', 'c4'].map((code, index) =>
          single('verticalBar', `Product ${index + 1}`, 'CRS-SHELF01', code, [3, 6], {
            max: MAX_PRODUCT_CAPACITY,
            units: 'items',
          }),
        ),
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
  filtec: plantsOverview('filtec', [
    ['FTW-PLANT01', 'Lakeside'],
    ['FTW-PLANT02', 'Hilltop'],
  ]),
  filtecMoe: plantsOverview('filtec moe', [
    ['MTW-PLANT01', 'Township'],
    ['MTW-PLANT02', 'Creek'],
  ]),
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
        single('radial', 'Boiler 1 line pressure', 'ACME-BLR01', 'c2', [4, 6], {
          max: 7,
          units: 'bar',
          arcSegments: arcs([1, WARN, 'Low'], [5, GOOD, 'Normal'], [7, ALARM, 'High']),
        }),
        single('value', 'Boiler 1 pump flow', 'ACME-BLR01', 'c3', [2, 6], { max: 45, units: 'L/min' }),
        single('textAndNumber', 'Boiler 1 humidity', 'ACME-BLR01', 'c4', [2, 6], { units: '%' }),
        single('switch', 'Boiler 1 heater', 'ACME-BLR01', 'do1', [2], { activeColor: ALARM }),
        single('indicator', 'Boiler 1 pump', 'ACME-BLR01', 'do2', [2], { activeColor: GOOD }),
        single('upDownControl', 'Boiler 1 heating setpoint', 'ACME-BLR01', 'sp1', [2], {
          min: 5,
          max: 35,
          increment: 0.5,
          units: '°C',
        }),
        single('indicator', 'Boiler 1 door', 'ACME-BLR01', 'd1', [2]),
        single('value', 'Boiler 2 pumped volume', 'ACME-BLR02', 't1', [2], { units: 'L' }),
        single('switch', 'Boiler 2 heater', 'ACME-BLR02', 'do1', [2], { activeColor: ALARM }),
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
        single('therm', 'Freezer room', 'ACME-COLD01', 'c1', [2, 12], { min: -10, max: 45, units: '°C' }),
        single('progressBar', 'Freezer humidity', 'ACME-COLD01', 'c4', [2], { units: '%' }),
        single('switch', 'Chiller pump', 'ACME-COLD02', 'do2', [2]),
        single('indicator', 'Freezer door', 'ACME-COLD01', 'd1', [2]),
      ],
    },
  ],
};

/**
 * A water-plant account's own scene beside the plants' generated dashboards: every plant of the
 * account side by side (supply flow on §9's flow axis of the app, tank levels, totals, UV dose).
 */
function plantsOverview(appType: PlantAppType, plants: readonly (readonly [string, string])[]): DemoScene[] {
  const [tankMin, tankMax] = TANK_LEVEL_RANGE;
  return [
    {
      name: 'Plants overview',
      widgets: [
        title('Plants overview'),
        {
          type: 'chart',
          name: 'Supply flow',
          channels: plants.map(([plant, site]) => [plant, 'a1', site]),
          w: 8,
          props: {
            yAxis: [
              axis(
                'Flow',
                'L/min',
                plants.map(([plant]) => `${plant}:a1`),
                0,
                FLOW_AXIS_MAX[appType],
              ),
            ],
          },
        },
        ...plants.map(([plant, site]) =>
          single('tank', `${site} tank level`, plant, 'a16', [2, 8], { min: tankMin, max: tankMax, units: '%' }),
        ),
        ...plants.flatMap(([plant, site]) => [
          single('value', `${site} supply total`, plant, 'd1', [3, 4], { units: 'm³' }),
          single('value', `${site} UV dose`, plant, 't5', [3, 4], { units: 'mJ/cm²' }),
        ]),
        ...plants.map(([plant, site]) =>
          single('indicator', `${site} plant run`, plant, 'do1', [2], { activeColor: GOOD }),
        ),
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

/** A scene as stored: its widgets with their ids and §3's defaults, and its layout. */
interface StoredScene {
  name: string;
  gridLayout: ReturnType<typeof flowGridLayout>;
  widgets: (WidgetProps & { id: string; type: WidgetType })[];
}

/** The hand-written scenes of an account, their widgets' devices named by thing name in `deviceIds`. */
function writtenScenes(scenes: readonly DemoScene[], deviceIds: ReadonlyMap<string, string>): StoredScene[] {
  return scenes.map((scene) => {
    const widgets = scene.widgets.map((widget) => ({ ...widget, id: newId() }));
    const gridLayout = flowGridLayout(widgets);
    return {
      name: scene.name,
      gridLayout,
      widgets: widgets.map((widget) => ({ ...widgetProps(widget, deviceIds), id: widget.id, type: widget.type })),
    };
  });
}

/**
 * Adds the demo scenes of an account to its root group: the hand-written ones of its key, or for a
 * demo account (core §1) the overview of its simulated devices that the browser demo shows too
 * (domain `fleetOverview`), from their stored names and channels, in the account's order.
 */
export async function addDemoScenes(
  db: Kysely<Database>,
  account: {
    key: string;
    name: string;
    kind: string;
    groups: readonly { devices: readonly { thingName: string }[] }[];
  },
  accountId: string,
  rootGroupId: string,
  now: number,
): Promise<void> {
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'thing_name', 'name', 'channels'])
    .where('account_id', '=', accountId)
    .execute();
  const deviceIds = new Map(devices.map((device) => [device.thing_name, device.id]));
  const byThing = new Map(devices.map((device) => [device.thing_name, device]));
  const fleet = account.groups.flatMap((group) =>
    group.devices.flatMap(({ thingName }) => byThing.get(thingName) ?? []),
  );
  const scenes =
    account.kind === DEMO_ACCOUNT_KIND
      ? [
          fleetOverview(
            account.name,
            fleet.map(({ id, name, channels }) => ({ id, name, channels: JSON.parse(channels) as OverviewChannel[] })),
            () => newId(),
          ),
        ]
      : writtenScenes(DEMO_SCENES[account.key] ?? [], deviceIds);
  for (const [position, scene] of scenes.entries()) {
    const sceneId = newId();
    await insertScene(db, {
      id: sceneId,
      group_id: rootGroupId,
      name: scene.name,
      type: 'grid',
      position,
      is_grid_locked: 0,
      grid_layout: JSON.stringify(scene.gridLayout),
      created_at: now,
    });
    for (const [index, { id, type, ...props }] of scene.widgets.entries()) {
      await insertWidget(db, {
        id,
        scene_id: sceneId,
        type,
        props: JSON.stringify(props),
        // One millisecond apart, so the widgets keep their order.
        created_at: now + index,
        updated_at: now + index,
      });
    }
  }
}
