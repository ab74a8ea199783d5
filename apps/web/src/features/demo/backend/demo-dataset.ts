import type { AccountAnswer, GroupNode, TreeDevice } from '@fieldlink/api/account';
import { accountGroups, treeChannel, type LaidOutGroup } from '@fieldlink/domain/account-view';
import { isUnderPath } from '@fieldlink/domain/group-path';
import { effectivePermissions } from '@fieldlink/domain/permissions';
import { accountTrees, type AccountTreeStore } from '@fieldlink/services/account-service';
import type { Device } from '@fieldlink/api/device';
import type { SelfAnswer } from '@fieldlink/api/session';
import { DEMO_ACCOUNT_KIND, demoVisitorRights } from '@fieldlink/domain/demo';
import { simulatedDeviceConfig } from '@fieldlink/simulation/device-identity';
import { demoFleetAccount, type DemoFleet, type DemoFleetDevice } from '@fieldlink/simulation/demo-fleet';
import type { DeviceSnapshot } from '../worker/protocol';

/**
 * What the demo's account holds, built from the variant's fleet (packages/simulation) and the
 * simulated devices as the worker reports them: the account tree, the prospect as a user, and each
 * device's record, in the shapes the server answers.
 */

export const DEMO_ACCOUNT_ID = 'demo-account';
export const DEMO_USER_EMAIL = 'prospect@demo.fieldlink';
const DEMO_VISITOR = { firstName: 'Demo', lastName: 'Visitor' };

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
  devices: Map<string, DeviceEntry>;
}

/** A device of the demo's fleet and its group. */
type DeviceEntry = { fleet: DemoFleetDevice; group: DemoGroupEntry };

export function buildDataset(fleet: DemoFleet): DemoDataset {
  let count = 0;
  // Ids of the browser's own, the same on every visit.
  const groups = accountGroups({ ...demoFleetAccount(fleet), groups: fleet.groups }, (kind) =>
    kind === 'group' ? `demo-group-${++count}` : `demo-${kind}`,
  );
  const devices = new Map(
    groups.flatMap((group) => group.devices.map((device) => [device.thingName, { fleet: device, group }] as const)),
  );
  const [{ id: rootId, path: rootPath }] = groups as [DemoGroupEntry];
  const own = groups.filter((group) => group.kind === 'group');
  return { fleet, rootId, rootPath, accountGroups: groups, groups: own, devices };
}

/** The prospect's one attachment point: the demo's root, with what a visitor may do (domain `demoVisitorRights`). */
function prospectPoint(dataset: DemoDataset) {
  return { path: dataset.rootPath, ...demoVisitorRights(dataset.fleet.appType), appType: dataset.fleet.appType };
}

export function selfAnswer(dataset: DemoDataset): SelfAnswer {
  return {
    id: 'demo-user',
    email: DEMO_USER_EMAIL,
    ...DEMO_VISITOR,
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

/**
 * The demo's account tree (`GET /account`), built as the server builds it
 * (`@fieldlink/services/account-service`) over the dataset: its groups, devices, scene and prospect.
 */
export async function accountAnswer(
  dataset: DemoDataset,
  snapshots: ReadonlyMap<string, DeviceSnapshot>,
  scenes: readonly { id: string; name: string }[],
): Promise<AccountAnswer> {
  const { fleet, rootId, rootPath } = dataset;
  const store: AccountTreeStore<DeviceEntry> = {
    account: async () => ({ id: DEMO_ACCOUNT_ID, ...demoFleetAccount(fleet) }),
    groupsUnder: async (path) =>
      dataset.accountGroups
        .filter((group) => isUnderPath(group.path, path))
        .map((group) => ({
          ...group,
          accountId: DEMO_ACCOUNT_ID,
          appType: fleet.appType,
          accountKind: DEMO_ACCOUNT_KIND,
        })),
    devicesIn: async (ids) => [...dataset.devices.values()].filter(({ group }) => ids.includes(group.id)),
    placeOf: ({ fleet: device, group }) => ({ id: device.thingName, groupId: group.id }),
    // One tree, of the whole account: the scene and the prospect are at its root.
    scenesOf: async () => scenes.map((scene) => ({ ...scene, groupId: rootId })),
    usersAt: async () => [{ ...DEMO_VISITOR, email: DEMO_USER_EMAIL, path: rootPath, subject: prospectPoint(dataset) }],
    invitationsAt: async () => [],
  };
  const subject = effectivePermissions(selfAnswer(dataset).linkedAccounts);
  const viewer = { subject, attachmentPoints: [{ accountId: DEMO_ACCOUNT_ID, path: rootPath }] };
  const accounts = await accountTrees<DeviceEntry, TreeDevice, GroupNode>(store, viewer, (tree) => {
    for (const { fleet: device, group: entry } of tree.devices) {
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
    return tree.root;
  });
  return { accounts };
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
