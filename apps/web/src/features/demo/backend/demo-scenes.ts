import type { Scene, Widget } from '@fieldlink/api/scenes';
import { scenePath, widgetPath } from '@fieldlink/domain/group-path';
import { flowGridLayout, widgetWithDefaults, type WidgetType } from '@fieldlink/domain/widgets';
import type { DeviceSnapshot } from '../worker/protocol';
import { DEMO_ACCOUNT_ID, type DemoDataset } from './demo-dataset';

const SCENE_ID = 'demo-overview';
const RELAY_CODE = /^do?\d+$/;

interface SceneWidget {
  type: WidgetType;
  name: string;
  channels: { deviceId: string; code: string; name?: string }[];
  w?: number;
  h?: number;
  units?: string;
  value?: string;
}

/** The reading a device is known by: its first measured channel with a unit, else its first channel. */
function primaryChannel(snapshot: DeviceSnapshot): DeviceSnapshot['channels'][number] | undefined {
  return snapshot.channels.find((channel) => channel.units && /^[ac]\d+$/.test(channel.code)) ?? snapshot.channels[0];
}

/**
 * The demo account's dashboard (its root group's one scene): a title, a chart of every device's main
 * reading, and per device a value of that reading and the state of its first relay. The account is of
 * kind `demo`, so the scene is read-only (§6).
 */
export function demoScenes(dataset: DemoDataset, snapshots: readonly DeviceSnapshot[]): Scene[] {
  const named = (snapshot: DeviceSnapshot) => dataset.devices.get(snapshot.thingName)?.fleet.name ?? snapshot.thingName;
  const widgets: SceneWidget[] = [
    { type: 'customText', name: '', channels: [], h: 3, value: `${dataset.fleet.accountName}: live overview` },
  ];
  const primaries = snapshots.flatMap((snapshot) => {
    const channel = primaryChannel(snapshot);
    return channel ? [{ snapshot, channel }] : [];
  });
  widgets.push({
    type: 'chart',
    name: 'Main readings',
    w: 12,
    channels: primaries.map(({ snapshot, channel }) => ({
      deviceId: snapshot.thingName,
      code: channel.code,
      name: channel.name,
    })),
  });
  for (const { snapshot, channel } of primaries) {
    widgets.push({
      type: 'value',
      name: `${named(snapshot)}: ${channel.name}`,
      w: 3,
      channels: [{ deviceId: snapshot.thingName, code: channel.code }],
      ...(channel.units ? { units: channel.units } : {}),
    });
    const relay = snapshot.channels.find((entry) => RELAY_CODE.test(entry.code));
    if (relay) {
      widgets.push({
        type: 'indicator',
        name: `${named(snapshot)}: ${relay.name}`,
        w: 3,
        channels: [{ deviceId: snapshot.thingName, code: relay.code }],
      });
    }
  }
  const placed = widgets.map((widget, index) => ({ ...widget, id: `demo-widget-${index + 1}` }));
  return [
    {
      id: SCENE_ID,
      name: 'Overview',
      type: 'grid',
      index: 0,
      accountId: DEMO_ACCOUNT_ID,
      path: scenePath(dataset.rootId, SCENE_ID),
      groupId: dataset.rootId,
      isGridLocked: true,
      widgets: placed.map(({ id, type, name, channels, units, value }): Widget => ({
        ...widgetWithDefaults({
          type,
          name,
          doesInheritName: false,
          channels: channels.map((channel) => ({ ...channel, legendVisibility: true })),
          arcSegments: [],
          annotations: [],
          yAxis: [],
          ...(units ? { units } : {}),
          ...(value ? { value } : {}),
        }),
        id,
        path: widgetPath(dataset.rootId, SCENE_ID, id),
        groupId: dataset.rootId,
        sceneId: SCENE_ID,
      })),
      gridLayout: flowGridLayout(placed),
      appType: dataset.fleet.appType,
      readOnly: true,
    },
  ];
}
