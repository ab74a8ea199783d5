import type { Account, GroupNode } from '@fieldlink/api/account';
import type { ImportedDevice } from '@fieldlink/api/device';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { toCsv } from '@fieldlink/domain/csv';

/** A group a device can be added to: its id, its account and its names from the top down. */
export interface DevicePlace {
  groupId: string;
  accountId: string;
  /** Names from the user's account down, joined with " / ". */
  label: string;
  /** True for an account's New Devices group, where a device goes unless another is chosen. */
  isNewDevices: boolean;
}

/** Every group of the user's trees a device can be added to (the Trash left out), in tree order. */
export function devicePlaces(accounts: readonly Account[]): DevicePlace[] {
  const places: DevicePlace[] = [];
  const visit = (group: GroupNode, names: string[]) => {
    if (group.kind === 'trash') return;
    places.push({
      groupId: group.id,
      accountId: group.accountId,
      label: names.join(' / '),
      isNewDevices: group.kind === 'new',
    });
    for (const child of group.groups) visit(child, [...names, child.name]);
  };
  for (const account of accounts) visit(account.rootGroup, [account.rootGroup.name]);
  return places;
}

/** A command line that publishes one frame as the new device, to try its credentials at once. */
export function connectionExample(brokerUrl: string, thingName: string, password: string): string {
  const url = new URL(brokerUrl);
  const tls = url.protocol === 'mqtts:';
  const port = url.port || (tls ? '8883' : '1883');
  const frame = JSON.stringify({ v: 4, type: 'log', values: { c1: 21.5 } });
  return [
    `mosquitto_pub -V mqttv311 -h ${url.hostname} -p ${port}${tls ? ' --capath /etc/ssl/certs' : ''} \\`,
    `  -i ${thingName} -u ${thingName} -P '${password}' \\`,
    `  -q 1 -t ${deviceUpTopic(thingName)} -m '${frame}'`,
  ].join('\n');
}

/** The credentials of imported devices as a CSV file, the one time they are shown. */
export function credentialsCsv(devices: readonly ImportedDevice[], brokerUrl: string): string {
  return toCsv(
    ['name', 'serial', 'group path', 'thing name', 'password', 'broker'],
    devices.map((device) => [device.name, device.sn, device.groupPath, device.thingName, device.password, brokerUrl]),
  );
}
