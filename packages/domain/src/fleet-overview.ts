import { channelValueType } from './channel-presentation';
import { parseChannelCode, type ChannelPrefix } from './channels';
import { flowGridLayout, widgetWithDefaults, type WidgetType } from './widgets';

/**
 * The overview dashboard of a fleet of simulated devices (core §1): the browser demo's one scene and
 * the Overview the server's seed gives its demo account, built once from the devices and the channels
 * their plant models report. A title, a chart of every device's main reading, and per device a value
 * of that reading and the state of its first relay.
 */

/** A channel as the overview reads it. */
export interface OverviewChannel {
  readonly code: string;
  readonly name: string;
  readonly units?: string | null;
}

/** A device of the fleet: its id (the widgets' channels name it), its name and its channels. */
export interface OverviewDevice {
  readonly id: string;
  readonly name: string;
  readonly channels: readonly OverviewChannel[];
}

const hasPrefix = (channel: OverviewChannel, prefixes: readonly ChannelPrefix[]) => {
  const prefix = parseChannelCode(channel.code)?.prefix;
  return prefix !== undefined && prefixes.includes(prefix);
};

/** The reading a device is known by: its first input or auxiliary channel with a unit, else its first channel. */
export function primaryChannel<C extends OverviewChannel>(channels: readonly C[]): C | undefined {
  return channels.find((channel) => channel.units && hasPrefix(channel, ['c', 'a'])) ?? channels[0];
}

/** Its first relay that holds a state (a digital input counting pulses, `d1` in m³, is no relay). */
export function firstRelay<C extends OverviewChannel>(channels: readonly C[]): C | undefined {
  return channels.find(
    (channel) => hasPrefix(channel, ['do', 'o']) && channelValueType(channel.code, channel.units) === 'state',
  );
}

interface OverviewWidget {
  type: WidgetType;
  name: string;
  channels: { deviceId: string; code: string; name?: string }[];
  w?: number;
  h?: number;
  units?: string;
  value?: string;
}

/**
 * The overview scene of an account's devices, its widgets with §3's defaults and ids from `widgetId`
 * (by position), laid out in rows (domain `flowGridLayout`).
 */
export function fleetOverview(
  accountName: string,
  devices: readonly OverviewDevice[],
  widgetId: (index: number) => string,
) {
  const widgets: OverviewWidget[] = [
    { type: 'customText', name: '', channels: [], h: 3, value: `${accountName}: live overview` },
  ];
  const primaries = devices.flatMap((device) => {
    const channel = primaryChannel(device.channels);
    return channel ? [{ device, channel }] : [];
  });
  widgets.push({
    type: 'chart',
    name: 'Main readings',
    w: 12,
    channels: primaries.map(({ device, channel }) => ({ deviceId: device.id, code: channel.code, name: channel.name })),
  });
  for (const { device, channel } of primaries) {
    const { units } = channel;
    const one = { channels: [{ deviceId: device.id, code: channel.code }], w: 3, ...(units ? { units } : {}) };
    widgets.push({ type: 'value', name: `${device.name}: ${channel.name}`, ...one });
    const relay = firstRelay(device.channels);
    if (relay) {
      const channels = [{ deviceId: device.id, code: relay.code }];
      widgets.push({ type: 'indicator', name: `${device.name}: ${relay.name}`, w: 3, channels });
    }
  }
  const placed = widgets.map((widget, index) => ({ ...widget, id: widgetId(index) }));
  return {
    name: 'Overview',
    gridLayout: flowGridLayout(placed),
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
  };
}
