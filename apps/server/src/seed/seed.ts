import type { Kysely } from 'kysely';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import { createModel } from '@fieldlink/simulation/create-model';
import { createDeviceIdentity, simulatedDeviceConfig } from '@fieldlink/simulation/device-identity';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import { accountGroups, type LaidOutGroup } from '@fieldlink/domain/account-view';
import { childPath } from '@fieldlink/domain/group-path';
import type { Database } from '../db/schema';
import { insertDevice } from '../features/devices/repository';
import { insertAttachmentPoint, insertUser } from '../features/session/repository';
import { hashPassword } from '../security/passwords';
import { installationSecret } from '../security/installation';
import { demoDevicePassword, hashSecret, newDeviceSecret, newId } from '../security/secrets';
import { isDemoDeviceId } from '@fieldlink/domain/demo';
import { seedDemoHistory } from './demo-history';
import { addDemoScenes } from './demo-scenes';
import { seedDemoReports } from './demo-reports';
import { seedDemoBrew } from './demo-brew';
import { seedDemoAlarms } from './demo-alarms';
import { seedDemoRollout } from './demo-ota';
import { DEMO_CUSTOMERS, DEMO_SUPPLIER, type DemoAccount, type DemoDevice, type DemoDeviceKind } from './demo-data';

/** A demo device the embedded fleet connects as. */
export interface FleetDevice {
  thingName: string;
  password: string;
  kind: DemoDeviceKind;
}

const DEMO_DEVICES_KEY = 'demo_devices';

/** Every demo sign-in, for the start-up banner and the README. */
export function demoSignIns(): { email: string; account: string; permissions: string }[] {
  return [DEMO_SUPPLIER, ...DEMO_CUSTOMERS].flatMap((account) =>
    account.users.map((user) => ({
      email: user.email,
      account: account.name,
      permissions: user.permissions.join(', '),
    })),
  );
}

/**
 * Seeds the demo installation when the database has no account yet. Answers whether it seeded.
 * Device passwords derive from the installation's demo key, so the embedded fleet can sign in. The
 * plant models as the history leaves them go into `liveModels` when given (`seedDemoHistory`).
 */
export async function seedDemo(
  db: Kysely<Database>,
  password: string,
  historyDays = 0,
  liveModels?: Map<string, DeviceModel>,
): Promise<boolean> {
  const existing = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  const demoKey = await installationSecret(db, 'demo_key');
  // Every demo user starts with the same password, so one scrypt hash serves them all: one per user was
  // nine at 128 MiB each, most of a start without history on a busy machine (docs/decisions.md). A user
  // who changes the password gets a hash and salt of their own.
  const passwordHash = await hashPassword(password);
  const now = Date.now();
  const fleet: { thingName: string; kind: DemoDeviceKind }[] = [];

  await db.transaction().execute(async (trx) => {
    async function addGroup(accountId: string, group: Omit<LaidOutGroup<DemoDevice>, 'devices'>) {
      const { id, parentId, name, kind, path, simulation } = group;
      await trx
        .insertInto('groups')
        .values({
          id,
          account_id: accountId,
          parent_id: parentId,
          name,
          kind,
          path,
          created_at: now,
          simulation: simulation ? 1 : 0,
        })
        .execute();
    }

    async function addDevice(accountId: string, groupId: string, demo: DemoDevice) {
      // A `_DEMO` device is simulated in the browser that shows it (core §1): the server keeps the
      // entity only. It joins no fleet, gets no history, and its secret is one nobody is given.
      const simulated = isDemoDeviceId(demo.thingName);
      if (!simulated) fleet.push({ thingName: demo.thingName, kind: demo.kind });
      await insertDevice(trx, {
        // Core §1: a demo device's id ends with _DEMO; its thing name is that id.
        id: simulated ? demo.thingName : newId(),
        account_id: accountId,
        group_id: groupId,
        thing_name: demo.thingName,
        secret_hash: hashSecret(simulated ? newDeviceSecret() : demoDevicePassword(demoKey, demo.thingName)),
        name: demo.name,
        sn: demo.sn,
        site: demo.site,
        plan: demo.plan,
        location: JSON.stringify(demo.location),
        ...(demo.tags && { tags: JSON.stringify(demo.tags.map((tag) => ({ id: newId(), ...tag }))) }),
        created_at: now,
      });
      if (simulated) await describeSimulatedDevice(trx, demo.thingName, demo.kind, now);
    }

    /** An account with its groups (domain `accountGroups`: root, New Devices, Trash, its own), placed under `parent`. */
    async function addAccount(account: DemoAccount, parent: { id: string; path: string } | null) {
      const accountId = newId();
      const groups = accountGroups(account, () => newId(), parent);
      const root = groups[0]!;
      await trx
        .insertInto('accounts')
        .values({
          id: accountId,
          name: account.name,
          app_type: account.appType,
          kind: account.kind,
          user_variant: account.userVariant,
          theme: account.theme,
          root_group_id: root.id,
          created_at: now,
        })
        .execute();
      for (const group of groups) {
        await addGroup(accountId, group);
        for (const demo of group.devices) await addDevice(accountId, group.id, demo);
      }
      await addDemoScenes(trx, account, accountId, root.id, now);
      for (const user of account.users) {
        const userId = newId();
        await insertUser(trx, {
          id: userId,
          email: user.email,
          password_hash: passwordHash,
          first_name: user.firstName,
          last_name: user.lastName,
          monitor_only: user.monitorOnly ? 1 : 0,
        });
        await insertAttachmentPoint(trx, {
          id: newId(),
          user_id: userId,
          account_id: accountId,
          ordinal: 0,
          path: root.path,
          permissions: JSON.stringify(user.permissions),
          secret_permissions: JSON.stringify(user.secretPermissions),
          app_type: account.appType,
        });
      }
      return root;
    }

    const supplierRoot = await addAccount(DEMO_SUPPLIER, null);
    const customersId = newId();
    const customersPath = childPath(supplierRoot.path, customersId);
    const supplier = await trx
      .selectFrom('groups')
      .select('account_id')
      .where('id', '=', supplierRoot.id)
      .executeTakeFirstOrThrow();
    await addGroup(supplier.account_id, {
      id: customersId,
      parentId: supplierRoot.id,
      path: customersPath,
      name: 'Customers',
      kind: 'group',
      simulation: false,
    });
    for (const customer of DEMO_CUSTOMERS) await addAccount(customer, { id: customersId, path: customersPath });
    await trx
      .insertInto('settings')
      .values({ key: DEMO_DEVICES_KEY, value: JSON.stringify(fleet) })
      .execute();
  });
  await seedDemoHistory(db, fleet, historyDays, Date.now(), liveModels);
  // Alarms raised in the past need a past: an installation seeded without history starts without them.
  if (historyDays > 0) {
    await seedDemoAlarms(db, Date.now(), liveModels);
    await seedDemoRollout(db);
  }
  await seedDemoReports(db, historyDays);
  await seedDemoBrew(db, Date.now(), liveModels);
  return true;
}

/**
 * What the server keeps of a `_DEMO` device beyond its entity: everything its simulated device says of
 * itself in its config frame (`simulatedDeviceConfig`, the one description the simulator's frames and
 * the browser demo's record start from): identity, channels, registers, upload and log intervals,
 * expanded-IO points, clock and modem port, so the device table's model, zone and cellular cells read
 * what its dash does; and that it counts as connected, since it runs in every browser that shows it.
 * Nothing ever changes this: no frame of a `_DEMO` device is taken in, and its values, logs and health
 * exist only in those browsers.
 */
async function describeSimulatedDevice(db: Kysely<Database>, thingName: string, kind: DemoDeviceKind, now: number) {
  const seed = seedFromText(thingName);
  const model = createModel(kind, { seed, startTimeMs: now });
  const config = simulatedDeviceConfig(createDeviceIdentity(kind, seed), model.channels, model.registers());
  await db
    .updateTable('devices')
    .set({
      sn: config.sn,
      fw: config.fw,
      model: config.model,
      hw: config.hw,
      base: config.base,
      custom: config.custom,
      upload_interval: config.uploadInterval,
      log_interval: config.logInterval,
      expanded_io_max: config.expandedIoMax,
      time_date: JSON.stringify(config.timeDate),
      channels: JSON.stringify(config.channels),
      registers: JSON.stringify(config.registers),
      ports: JSON.stringify(config.ports),
      is_connected: 1,
      last_connection: now,
    })
    .where('thing_name', '=', thingName)
    .execute();
}

/** The demo devices with their passwords, for the embedded fleet; empty when no demo was seeded. */
export async function demoFleet(db: Kysely<Database>): Promise<FleetDevice[]> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', DEMO_DEVICES_KEY).executeTakeFirst();
  if (!row) return [];
  const demoKey = await installationSecret(db, 'demo_key');
  const devices = JSON.parse(row.value) as { thingName: string; kind: DemoDeviceKind }[];
  return devices.map((device) => ({ ...device, password: demoDevicePassword(demoKey, device.thingName) }));
}
