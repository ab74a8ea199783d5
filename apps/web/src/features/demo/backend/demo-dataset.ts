import type { Account, TreeDevice } from '@fieldlink/api/account';
import { accountGroups, groupTree, treeChannel, type LaidOutGroup } from '@fieldlink/domain/account-view';
import type { Device } from '@fieldlink/api/device';
import type { SelfAnswer } from '@fieldlink/api/session';
import { ACCOUNTS_USER_VARIANT } from '@fieldlink/domain/user-variant';
import { DEMO_ACCOUNT_KIND, demoVisitorRights } from '@fieldlink/domain/demo';
import { simulatedDeviceConfig } from '@fieldlink/simulation/device-identity';
import type { DemoFleet, DemoFleetDevice } from '@fieldlink/simulation/demo-fleet';
import type { DeviceSnapshot } from '../worker/protocol';

/**
 * What the demo's account holds, built from the variant's fleet (packages/simulation) and the
 * simulated devices as the worker reports them: the account tree, the prospect as a user, and each
 * device's record, in the shapes the server answers.
 */

export const DEMO_ACCOUNT_ID = 'demo-account';
export const DEMO_USER_EMAIL = 'prospect@demo.fieldlink';
/** The demo's devices log every 10 s, as field devices do. */
const LOG_INTERVAL_SECONDS = 10;

/** A group of the demo's account, with its fleet's devices. */
export type DemoGroupEntry = LaidOutGroup<DemoFleetDevice>;

export interface DemoDataset {
  fleet: DemoFleet;
  rootId: string;
  rootPath: string;
  /** Every group of the account, as the server's seed lays one out (domain `accountGroups`). */
  accountGroups: DemoGroupEntry[];
  /** The fleet's own groups. */
  groups: DemoGroupEntry[];
  /** Every device by id (its thing name). */
  devices: Map<string, { fleet: DemoFleetDevice; group: DemoGroupEntry }>;
}

export function buildDataset(fleet: DemoFleet): DemoDataset {
  let count = 0;
  const outline = { name: fleet.accountName, kind: DEMO_ACCOUNT_KIND, userVariant: userVariantOf(fleet) };
  // Ids of the browser's own, the same on every visit.
  const groups = accountGroups({ ...outline, groups: fleet.groups }, (kind) =>
    kind === 'group' ? `demo-group-${++count}` : `demo-${kind}`,
  );
  const devices = new Map(
    groups.flatMap((group) => group.devices.map((device) => [device.thingName, { fleet: device, group }] as const)),
  );
  const [{ id: rootId, path: rootPath }] = groups as [DemoGroupEntry];
  const own = groups.filter((group) => group.kind === 'group');
  return { fleet, rootId, rootPath, accountGroups: groups, groups: own, devices };
}

const userVariantOf = (fleet: DemoFleet): string | null => (fleet.appType === 'stock' ? ACCOUNTS_USER_VARIANT : null);

/** The prospect's one attachment point: the demo's root, with what a visitor may do (domain `demoVisitorRights`). */
function prospectPoint(dataset: DemoDataset) {
  return { path: dataset.rootPath, ...demoVisitorRights(dataset.fleet.appType), appType: dataset.fleet.appType };
}

export function selfAnswer(dataset: DemoDataset): SelfAnswer {
  return {
    id: 'demo-user',
    email: DEMO_USER_EMAIL,
    firstName: 'Demo',
    lastName: 'Visitor',
    theme: null,
    // The prospect operates the simulated devices: that is what the demo is for.
    monitorOnly: false,
    // The visitor's browser decides the clock.
    timeZone: null,
    hourCycle: null,
    dateOrder: null,
    linkedAccounts: [{ accountId: DEMO_ACCOUNT_ID, attachmentPoints: [prospectPoint(dataset)] }],
  };
}

/** The demo's account tree (domain `groupTree`, as the server builds it): its groups, devices, scenes and prospect. */
export function accountAnswer(
  dataset: DemoDataset,
  snapshots: ReadonlyMap<string, DeviceSnapshot>,
  scenes: readonly { id: string; name: string }[],
): Account {
  const { fleet, rootId, rootPath } = dataset;
  const userVariant = userVariantOf(fleet);
  const devices = [...dataset.devices.values()];
  const tree = groupTree<TreeDevice>({
    topPath: rootPath,
    groups: dataset.accountGroups.map((group) => ({
      ...group,
      accountId: DEMO_ACCOUNT_ID,
      appType: fleet.appType,
      accountKind: DEMO_ACCOUNT_KIND,
    })),
    devices: devices.map(({ fleet: device, group: { id } }) => ({ id: device.thingName, groupId: id })),
    scenes: scenes.map((scene) => ({ ...scene, groupId: rootId })),
    users: [
      {
        email: DEMO_USER_EMAIL,
        firstName: 'Demo',
        lastName: 'Visitor',
        path: rootPath,
        subject: prospectPoint(dataset),
      },
    ],
    invitations: null,
  })!;
  for (const { fleet: device, group: entry } of devices) {
    const snapshot = snapshots.get(device.thingName);
    tree.groups.get(entry.id)!.devices.push({
      id: device.thingName,
      name: device.name,
      sn: snapshot?.identity.sn ?? null,
      thingName: device.thingName,
      isConnected: true,
      lastConnection: null,
      lastDisconnection: null,
      channels: (snapshot?.channels ?? []).map(treeChannel),
      tags: device.tags.map(({ key, value }) => ({ key, value })),
    });
  }
  return {
    id: DEMO_ACCOUNT_ID,
    name: fleet.accountName,
    appType: fleet.appType,
    kind: DEMO_ACCOUNT_KIND,
    userVariant,
    theme: null,
    rootGroup: tree.root,
  };
}

/** Where a simulated device sits and what its owner named it. */
export interface SimulatedDevicePlace {
  accountId: string;
  groupId: string;
  /** Its group's path. */
  path: string;
  name: string;
  site: string | null;
  location: Device['location'];
  tags: readonly { key: string; value: string }[];
}

/** A device's record (`GET /device`) from its place in the fleet (`id` is one of it) and its simulated state. */
export function deviceRecord(
  dataset: DemoDataset,
  id: string,
  snapshot: DeviceSnapshot,
  connectedSince: number,
): Device {
  const { fleet: device, group } = dataset.devices.get(id)!;
  const place = {
    accountId: DEMO_ACCOUNT_ID,
    groupId: group.id,
    path: group.path,
    name: device.name,
    site: device.site,
    location: { ...device.location },
    tags: device.tags,
  };
  return simulatedDeviceRecord(device.thingName, place, snapshot, connectedSince);
}

/** The record (`GET /device`) of a simulated device (its id is its thing name: core §1) at its place. */
export function simulatedDeviceRecord(
  thingName: string,
  place: SimulatedDevicePlace,
  snapshot: DeviceSnapshot,
  connectedSince: number,
): Device {
  return {
    id: thingName,
    accountId: place.accountId,
    groupId: place.groupId,
    name: place.name,
    thingName,
    site: place.site,
    plan: 'PREMIUM',
    espFw: null,
    hwPlatform: null,
    updatePoint: null,
    customAttributes: {},
    // What the simulated device reports of itself, as the simulator's config frame says it.
    ...simulatedDeviceConfig(snapshot.identity, snapshot.channels, snapshot.registers),
    logInterval: LOG_INTERVAL_SECONDS,
    location: place.location,
    path: place.path,
    createdAt: connectedSince,
    isConnected: true,
    lastConnection: connectedSince,
    lastDisconnection: null,
    otaPendingSubmittedAt: null,
    update: null,
    tags: place.tags.map(({ key, value }, index) => ({ id: `tag-${index + 1}`, key, value })),
    health: snapshot.health,
    status: { sp: snapshot.statusBits },
    alarmsHaveBeenRead: true,
    muted: false,
  };
}
