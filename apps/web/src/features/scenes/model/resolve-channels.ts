import type { Account, GroupNode, TreeDevice } from '@fieldlink/api/account';
import type { Widget, WidgetChannel } from '@fieldlink/api/scenes';
import { channelName, sameChannelCode } from '@fieldlink/domain/channels';
import { listDevices } from '../../../lib/account-tree';
import type { ResolvedChannel } from '../widgets/widget-definition';

/** The devices a scene can show, by id: every device of the caller's tree outside the trash. */
export type DeviceIndex = ReadonlyMap<string, { device: TreeDevice; group: GroupNode; account: Account }>;

export function indexDevices(accounts: readonly Account[]): DeviceIndex {
  const index = new Map<string, { device: TreeDevice; group: GroupNode; account: Account }>();
  for (const placed of listDevices(accounts)) index.set(placed.device.id, placed);
  return index;
}

/** The name a device gives a channel, else its display name (`a3` -> `Aux_3`), else the code. */
export function deviceChannelName(device: TreeDevice | undefined, code: string): string {
  return channelName(code, deviceChannel(device, code)?.name);
}

function deviceChannel(device: TreeDevice | undefined, code: string) {
  return device?.channels?.find((channel) => sameChannelCode(channel.code, code));
}

/** A widget channel resolved against the tree; a device that is gone keeps its id and code. */
export function resolveChannel(channel: WidgetChannel, devices: DeviceIndex): ResolvedChannel {
  const placed = devices.get(channel.deviceId);
  const ownName = channel.name?.trim();
  return {
    deviceId: channel.deviceId,
    thingName: placed?.device.thingName ?? null,
    deviceName: placed?.device.name ?? 'Unavailable device',
    code: channel.code,
    name: ownName || deviceChannelName(placed?.device, channel.code),
    units: deviceChannel(placed?.device, channel.code)?.units?.trim() ?? '',
    legendVisibility: channel.legendVisibility ?? true,
  };
}

export function resolveChannels(widget: Pick<Widget, 'channels'>, devices: DeviceIndex): ResolvedChannel[] {
  return widget.channels.map((channel) => resolveChannel(channel, devices));
}

/**
 * The title of a widget frame: the first channel's name when the widget inherits its name (§3
 * doesInheritName) and has a channel, else its own name.
 */
export function widgetTitle(widget: Pick<Widget, 'name' | 'doesInheritName'>, channels: readonly ResolvedChannel[]) {
  const first = channels[0];
  if (widget.doesInheritName && first) return first.name;
  return widget.name;
}

/** Ids of the devices a scene's widgets show that are still in the tree, each once. */
export function sceneDeviceIds(widgets: readonly Pick<Widget, 'channels'>[], devices: DeviceIndex): string[] {
  const ids = new Set<string>();
  for (const widget of widgets)
    for (const channel of widget.channels) if (devices.has(channel.deviceId)) ids.add(channel.deviceId);
  return [...ids];
}
