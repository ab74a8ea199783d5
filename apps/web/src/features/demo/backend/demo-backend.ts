import { DEMO_READ_ONLY_MESSAGE, DEMO_REPORTS_MESSAGE } from '@fieldlink/domain/demo';
import { errorBody, GROUP_NOT_FOUND } from '@fieldlink/api/errors';
import { ACCOUNT_COLUMNS_QUERY, ACCOUNT_ROUTES, encodeAccountColumns } from '@fieldlink/api/account-columns';
import { ALARM_ROUTES } from '@fieldlink/api/alarms';
import { BREW_ROUTES } from '@fieldlink/api/brew';
import { SCENE_ROUTES } from '@fieldlink/api/scenes';
import { SESSION_ROUTES, SESSION_START_ROUTES } from '@fieldlink/api/session';
import { routeKey } from '@fieldlink/api/routes';
import { DEVICE_TABLE_BINARY_QUERY } from '@fieldlink/api/device-table';
import {
  DEVICE_TABLE_BINARY_TYPE,
  DEVICE_TABLE_ROUTE,
  encodeDeviceTableBinary,
} from '@fieldlink/api/device-table-binary';
import type { AppType } from '@fieldlink/domain/app-variant';
import { effectivePermissions } from '@fieldlink/domain/permissions';
import { retailViewerRights } from '@fieldlink/domain/retail-views';
import { BREW_CALLS, BrewCalls } from '@fieldlink/services/brew-service';
import { INVENTORY_CALLS } from '@fieldlink/services/inventory-service';
import { DEMO_HISTORY_MS, demoFleet, demoFleetDevices } from '@fieldlink/simulation/demo-fleet';
import { FALLBACK_CLIENT_CONFIG } from '../../../lib/api/get-client-config';
import type { LocalBackend, LocalCall } from '../../../lib/demo/demo-session';
import { demoBreweryStore, firstBreweryRecords, type DemoBreweryRecords, type DemoTankDevice } from './demo-brewery';
import { DemoCallError } from './demo-call-error';
import { answerCall, answering, json, type DemoCalls } from './demo-calls';
import { accountAnswer, buildDataset, deviceRecord, selfAnswer, type DemoDataset } from './demo-dataset';
import { deviceTableAnswer } from './demo-device-table';
import { demoInventoryCalls } from './demo-inventory';
import { demoScenes } from './demo-scenes';
import { loadDemoRecords, saveDemoRecords, type DemoRecords } from './demo-records';
import { SimulationLink } from './simulation-link';
import type { DeviceSnapshot } from '../worker/protocol';
import { simulatedDeviceCalls, simulatedLogs } from './simulated-calls';

/** Signing in (or up, or resetting a password) is the way out of a demo: those go to the server. */
const SESSION_CALLS = new Set(Object.values(SESSION_START_ROUTES).map(routeKey));

/**
 * The demo's server in the browser (core §1: demo data is kept locally without server calls). It
 * answers the console's calls in the server's shapes from the variant's simulated fleet: the account
 * tree, device records, latest values and logs from the simulation worker, and brewing records kept in
 * IndexedDB. Each call is checked by the schemas of the server's route (`demo-calls.ts`). Calls that
 * would change the account are refused with a clear message, as a read-only account's would be.
 */
export class DemoBackend implements LocalBackend {
  private readonly calls: DemoCalls;
  private readonly brewery: ReturnType<typeof demoBreweryStore>;

  constructor(
    private readonly dataset: DemoDataset,
    private readonly link: SimulationLink,
    /** When the simulated history began: the devices have been connected since. */
    private readonly since: number,
    brewing: { records: DemoBreweryRecords; save: () => Promise<void> },
  ) {
    this.brewery = demoBreweryStore(brewing.records, brewing.save, {
      group: (id) => this.dataset.groups.find((entry) => entry.id === id),
      tankDevices: (groupId) => this.tankDevices(groupId),
      logs: (deviceId, { channels, ...query }) =>
        simulatedLogs(this.link, { deviceId, channels: channels.join(','), ...query }),
    });
    this.calls = this.callTable();
  }

  answer(call: LocalCall): Promise<Response> | null {
    const name = `${call.method} ${call.path}`;
    if (SESSION_CALLS.has(name)) return null;
    const route = this.calls[name];
    if (route) return answerCall(route, call);
    return Promise.resolve(
      call.method === 'GET'
        ? json(404, errorBody(404, 'Not part of the demo.'))
        : json(403, errorBody(403, DEMO_READ_ONLY_MESSAGE)),
    );
  }

  createSocket() {
    return this.link.createSocket();
  }

  /** Stops the simulation: the demo is over or starts again. */
  stop(): void {
    this.link.terminate();
  }

  private snapshots(thingNames: readonly string[] = [...this.dataset.devices.keys()]) {
    return this.link.snapshots([...thingNames]);
  }

  private group(id: string) {
    const group = this.dataset.groups.find((entry) => entry.id === id);
    if (!group) throw new DemoCallError(404, GROUP_NOT_FOUND);
    return group;
  }

  /** The devices of a group that simulate a tank, as the brewing calls read them: records and latest values. */
  private async tankDevices(groupId: string): Promise<DemoTankDevice[]> {
    const group = this.group(groupId);
    const snapshots = await this.snapshots(group.devices.map((device) => device.thingName));
    return snapshots.flatMap((snapshot) =>
      snapshot.tank ? [{ ...this.deviceRecord(snapshot.thingName, snapshot), latest: snapshot.latest }] : [],
    );
  }

  /** A device's record (`GET /device`): its place in the dataset and its simulated state. */
  private deviceRecord(id: string, snapshot: DeviceSnapshot) {
    return deviceRecord(this.dataset, id, snapshot, this.since);
  }

  /** What the retail answers show the visitor, as the server decides it for a user (domain `retailViewerRights`). */
  private retailRights() {
    return retailViewerRights(effectivePermissions(selfAnswer(this.dataset).linkedAccounts));
  }

  private callTable(): DemoCalls {
    const brew = (now: number) => new BrewCalls(this.brewery, () => now);
    const inventory = (now: number) => demoInventoryCalls(this.dataset, this.link, () => this.retailRights(), now);
    const devices = simulatedDeviceCalls({
      link: this.link,
      since: this.since,
      has: (id) => this.dataset.devices.has(id),
      record: (id, snapshot) => this.deviceRecord(id, snapshot),
      serverKeepsOthers: false,
    });
    return {
      ...devices,
      ...Object.fromEntries([
        answering(SESSION_ROUTES.clientConfig, () => FALLBACK_CLIENT_CONFIG),
        answering(SESSION_ROUTES.self, () => selfAnswer(this.dataset)),
        answering(ACCOUNT_ROUTES.account, async ({ query }) => {
          const snapshots = await this.snapshots();
          const scenes = demoScenes(this.dataset, snapshots).map(({ id, name }) => ({ id, name }));
          const byThing = new Map(snapshots.map((snapshot) => [snapshot.thingName, snapshot]));
          const answer = await accountAnswer(this.dataset, byThing, scenes);
          // In whichever form the console asks for, as the server would answer it.
          return query.format === ACCOUNT_COLUMNS_QUERY ? encodeAccountColumns(answer) : answer;
        }),
        answering(SESSION_ROUTES.signOut, () => ({ ok: true })),
        // A crash in a demo is the console's, not the prospect's: it is logged here and goes nowhere.
        answering(SESSION_ROUTES.eventLog, ({ body }) => {
          console.error('Demo console error', body);
          return { ok: true };
        }),
        answering(ALARM_ROUTES.alarms, () => ({ alarms: [] })),
        answering(ALARM_ROUTES.alerts, () => ({ alerts: [] })),
        answering(SCENE_ROUTES.scenes, async ({ query }) =>
          query.groupId === this.dataset.rootId ? demoScenes(this.dataset, await this.snapshots()) : [],
        ),
        ...INVENTORY_CALLS.map(({ route, answer }) => answering(route, (call) => answer(inventory(call.now), call))),
        answering(DEVICE_TABLE_ROUTE, async ({ query }) => {
          const answer = await this.deviceTable();
          if (query.format !== DEVICE_TABLE_BINARY_QUERY) return answer;
          return new Response(encodeDeviceTableBinary(answer), {
            status: 200,
            headers: { 'content-type': DEVICE_TABLE_BINARY_TYPE },
          });
        }),
        // The brewing calls are the server's (`@fieldlink/services/brew-service`) over the demo's records.
        ...BREW_CALLS.map(({ route, answer }) => answering(route, (call) => answer(brew(call.now), call))),
        answering(BREW_ROUTES.generateReport, () => {
          throw new DemoCallError(403, DEMO_REPORTS_MESSAGE);
        }),
      ]),
    };
  }

  private async deviceTable() {
    const snapshots = new Map((await this.snapshots()).map((snapshot) => [snapshot.thingName, snapshot]));
    const devices = demoFleetDevices(this.dataset.fleet).flatMap((device) => {
      const snapshot = snapshots.get(device.thingName);
      return snapshot ? [this.deviceRecord(device.thingName, snapshot)] : [];
    });
    return deviceTableAnswer(this.dataset, devices);
  }
}

/**
 * Starts the demo of an app variant: its fleet in the worker (history from 30 days before the demo
 * began), its records from IndexedDB, or the first ones made from the plants on a first visit.
 */
export async function createDemoBackend(appType: AppType, deviceCount?: number): Promise<DemoBackend> {
  const fleet = demoFleet(appType, deviceCount);
  const dataset = buildDataset(fleet);
  const stored = await loadDemoRecords(appType);
  const records: DemoRecords = stored ?? { appType, begunAt: Date.now(), brewery: null };
  const since = records.begunAt - DEMO_HISTORY_MS;
  const link = new SimulationLink(
    demoFleetDevices(fleet).map(({ thingName, kind }) => ({ thingName, kind })),
    since,
  );
  const save = () => saveDemoRecords(records);
  if (!records.brewery) {
    const tankDevices = demoFleetDevices(fleet).filter((device) => device.kind === 'brewTank');
    const snapshots = tankDevices.length > 0 ? await link.snapshots(tankDevices.map((device) => device.thingName)) : [];
    records.brewery = firstBreweryRecords(
      snapshots.map((snapshot) => ({ ...snapshot, ...deviceRecord(dataset, snapshot.thingName, snapshot, since) })),
      Date.now(),
    );
  }
  if (!stored) await save();
  return new DemoBackend(dataset, link, since, { records: records.brewery, save });
}
