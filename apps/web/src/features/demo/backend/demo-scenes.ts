import type { Scene } from '@fieldlink/api/scenes';
import { channelValueType } from '@fieldlink/domain/channel-presentation';
import { parseChannelCode, type ChannelPrefix } from '@fieldlink/domain/channels';
import { DEMO_ACCOUNT_KIND } from '@fieldlink/domain/demo';
import { sceneView } from '@fieldlink/domain/scene-view';
import { flowGridLayout, widgetWithDefaults, type WidgetType } from '@fieldlink/domain/widgets';
import type { DeviceSnapshot } from '../worker/protocol';
import { DEMO_ACCOUNT_ID, type DemoDataset } from './demo-dataset';

const SCENE_ID = 'demo-overview';
type SnapshotChannel = DeviceSnapshot['channels'][number];

const hasPrefix = (channel: SnapshotChannel, prefixes: readonly ChannelPrefix[]) => {
  const prefix = parseChannelCode(channel.code)?.prefix;
  return prefix !== undefined && prefixes.includes(prefix);
};

interface SceneWidget {
  type: WidgetType;
  name: string;
  channels: { deviceId: string; code: string; name?: string }[];
  w?: number;
  h?: number;
  units?: string;
  value?: string;
}

/** The reading a device is known by: its first input or auxiliary channel with a unit, else its first channel. */
function primaryChannel(snapshot: DeviceSnapshot): SnapshotChannel | undefined {
  return snapshot.channels.find((channel) => channel.units && hasPrefix(channel, ['c', 'a'])) ?? snapshot.channels[0];
}

/** Its first relay that holds a state (a digital input counting pulses, `d1` in m³, is no relay). */
function firstRelay(snapshot: DeviceSnapshot): SnapshotChannel | undefined {
  return snapshot.channels.find(
    (channel) => hasPrefix(channel, ['do', 'o']) && channelValueType(channel.code, channel.units) === 'state',
  );
}

/**
 * The demo account's dashboard (its root group's one scene): a title, a chart of every device's main
 * reading, and per device a value of that reading and the state of its first relay. The account is of
 * kind `demo`, so the scene is read-only (§4, domain `sceneView`).
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
    const relay = firstRelay(snapshot);
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
  const { rootId, fleet } = dataset;
  const scene = sceneView({
    group: { id: rootId, accountId: DEMO_ACCOUNT_ID, appType: fleet.appType, accountKind: DEMO_ACCOUNT_KIND },
    scene: { id: SCENE_ID, name: 'Overview', isGridLocked: true, gridLayout: flowGridLayout(placed) },
    widgets: placed.map(({ id, type, name, channels, units, value }) => ({
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
    })),
    index: 0,
    // The prospect edits no dashboard; a demo account's are read-only anyway (§4).
    mayEdit: false,
  });
  return [scene];
}
