import { DEMO_REPORTS_MESSAGE } from '@fieldlink/domain/demo';
import { ACCOUNT_COLUMNS_QUERY, encodeAccountColumns } from '@fieldlink/api/account-columns';
import { BREW_PATHS } from '@fieldlink/api/brew';
import { tankLogQuery } from '@fieldlink/domain/brew';
import { numberedTanks } from '@fieldlink/domain/brew-views';
import { binWidthOf, type ChannelLog } from '@fieldlink/api/device-logs';
import { YEARLY_OVERVIEW_BIN_COUNT } from '@fieldlink/domain/chart';
import { RETAIL_STORE_LOG_WINDOW_MS } from '@fieldlink/domain/retail';
import { chartProductsAsked } from '@fieldlink/domain/retail-views';
import { MAX_CHART_PRODUCTS } from '@fieldlink/api/inventory';
import { DEVICE_TABLE_BINARY_QUERY, type DeviceTableAnswer } from '@fieldlink/api/device-table';
import { DEVICE_TABLE_BINARY_TYPE, encodeDeviceTableBinary } from '@fieldlink/api/device-table-binary';
import type { AppType } from '@fieldlink/domain/app-variant';
import { can, effectivePermissions } from '@fieldlink/domain/permissions';
import { demoFleet, demoFleetDevices } from '@fieldlink/simulation/demo-fleet';
import { FALLBACK_CLIENT_CONFIG } from '../../../lib/api/get-client-config';
import type { LocalBackend, LocalCall } from '../../../lib/demo/demo-session';
import type { DeviceSnapshot } from '../worker/protocol';
import { DemoBrewery, firstBreweryRecords, type NumberedTank } from './demo-brewery';
import { DemoCallError } from './demo-call-error';
import { accountAnswer, buildDataset, deviceRecord, selfAnswer, type DemoDataset } from './demo-dataset';
import { deviceTableAnswer } from './demo-device-table';
import { inventoryOverview, storeStatus, type DemoStore } from './demo-inventory';
import { demoScenes } from './demo-scenes';
import { loadDemoRecords, saveDemoRecords, type DemoRecords } from './demo-records';
import { SimulationLink } from './simulation-link';
import { DEMO_HISTORY_DAYS, json, simulatedAlarms, simulatedConnections, simulatedLogs, text } from './simulated-calls';

const DAY = 86_400_000;

/** What a prospect reads when they try something the demo cannot keep. */
export const DEMO_READ_ONLY_MESSAGE = 'This is a demo: changes to the account, devices and dashboards are not kept.';
const SESSION_CALLS = new Set([
  'POST /signin',
  'POST /user',
  'POST /user/password',
  'POST /user/password/email-reset-code',
]);

type Handler = (call: ParsedCall) => unknown;

interface ParsedCall {
  query: LocalCall['query'];
  body: Record<string, unknown>;
  now: number;
}

/**
 * The demo's server in the browser (core §1: demo data is kept locally without server calls). It
 * answers the console's calls in the server's shapes from the variant's simulated fleet: the account
 * tree, device records, latest values and logs from the simulation worker, and brewing records kept in
 * IndexedDB. Calls that would change the account are refused with a clear message, as a read-only
 * account's would be.
 */
export class DemoBackend implements LocalBackend {
  private readonly routes: Record<string, Handler>;

  constructor(
    private readonly dataset: DemoDataset,
    private readonly link: SimulationLink,
    private readonly records: DemoRecords,
    private readonly brewery: DemoBrewery,
  ) {
    this.routes = this.routeTable();
  }

  answer(call: LocalCall): Promise<Response> | null {
    // Signing in (or up, or resetting a password) is the way out of a demo: those go to the server.
    return SESSION_CALLS.has(`${call.method} ${call.path}`) ? null : this.handle(call);
  }

  createSocket() {
    return this.link.createSocket();
  }

  /** Stops the simulation: the demo is over or starts again. */
  stop(): void {
    this.link.terminate();
  }

  private async handle(call: LocalCall): Promise<Response> {
    const handler = this.routes[`${call.method} ${call.path}`];
    if (!handler) {
      return call.method === 'GET'
        ? json(404, { message: 'Not part of the demo.' })
        : json(403, { message: DEMO_READ_ONLY_MESSAGE });
    }
    let body: Record<string, unknown> = {};
    try {
      body = call.body ? (JSON.parse(call.body) as Record<string, unknown>) : {};
    } catch {
      return json(400, { message: 'The body is not JSON.' });
    }
    try {
      const answer = await handler({ query: call.query, body, now: Date.now() });
      // A handler answers a value sent as JSON, or a whole response (the device table's binary form).
      return answer instanceof Response ? answer : json(200, answer);
    } catch (error) {
      if (error instanceof DemoCallError) return json(error.status, { message: error.message });
      throw error;
    }
  }

  private async snapshots(thingNames?: readonly string[]): Promise<DeviceSnapshot[]> {
    return this.link.snapshots(thingNames ? [...thingNames] : [...this.dataset.devices.keys()]);
  }

  private async snapshotMap(): Promise<Map<string, DeviceSnapshot>> {
    return new Map((await this.snapshots()).map((snapshot) => [snapshot.thingName, snapshot]));
  }

  private connectedSince(): number {
    return this.records.begunAt - DEMO_HISTORY_DAYS * DAY;
  }

  private async device(id: string) {
    const [snapshot] = await this.snapshots([id]);
    const device = snapshot ? deviceRecord(this.dataset, id, snapshot, this.connectedSince()) : null;
    if (!device) throw new DemoCallError(404, 'Device not found.');
    return device;
  }

  private group(id: string) {
    const group = this.dataset.groups.find((entry) => entry.id === id);
    if (!group) throw new DemoCallError(404, 'Group not found.');
    return group;
  }

  /** The brewing tanks of a group: its fermentation vessels, numbered (domain `numberedTanks`, as the server). */
  private async tanks(groupId: string): Promise<NumberedTank[]> {
    const group = this.group(groupId);
    const snapshots = await this.snapshots(group.devices.map((device) => device.thingName));
    const vessels = snapshots.flatMap((snapshot) => {
      const fleet = this.dataset.devices.get(snapshot.thingName)?.fleet;
      if (!snapshot.tank) return [];
      const device = { ...snapshot, name: fleet?.name ?? snapshot.thingName, custom: snapshot.identity.custom };
      return [{ device, tags: fleet?.tags ?? [] }];
    });
    return numberedTanks(vessels, ({ device, tags }) => ({
      base: device.identity.base,
      tags,
      registers: device.registers,
    })).map(({ device, tankNumber }) => ({ device: device.device, tankNumber }));
  }

  /** The stores (groups with smart shelves) of the demo, or the one named. */
  private async stores(groupId: string | null): Promise<DemoStore[]> {
    const groups = this.dataset.groups.filter((group) => groupId === null || group.id === groupId);
    const stores: DemoStore[] = [];
    for (const group of groups) {
      const snapshots = await this.snapshots(group.devices.map((device) => device.thingName));
      const shelves = snapshots.flatMap((snapshot) =>
        snapshot.shelf ? [{ ...snapshot, name: this.dataset.devices.get(snapshot.thingName)!.fleet.name }] : [],
      );
      if (shelves.length > 0) stores.push({ group, shelves });
    }
    return stores;
  }

  private showsInefficiency(): boolean {
    return can(effectivePermissions(selfAnswer(this.dataset).linkedAccounts), 'reportingPlus');
  }

  private routeTable(): Record<string, Handler> {
    const body = <T>(call: ParsedCall) => call.body as T;
    return {
      'GET /client-config': () => FALLBACK_CLIENT_CONFIG,
      'GET /self': () => selfAnswer(this.dataset),
      'GET /account': async (call) => {
        const snapshots = await this.snapshots();
        const scenes = demoScenes(this.dataset, snapshots).map(({ id, name }) => ({ id, name }));
        const byThing = new Map(snapshots.map((snapshot) => [snapshot.thingName, snapshot]));
        const answer = { accounts: [accountAnswer(this.dataset, byThing, scenes)] };
        // In whichever form the console asks for, as the server would answer it.
        return call.query.format === ACCOUNT_COLUMNS_QUERY ? encodeAccountColumns(answer) : answer;
      },
      'POST /signout': () => ({}),
      // A crash in a demo is the console's, not the prospect's: it is logged here and goes nowhere.
      'POST /event-log': (call) => {
        console.error('Demo console error', call.body);
        return {};
      },
      'GET /device': (call) => this.device(text(call.query.id)),
      'GET /device/channels/latest-values': async (call) => {
        const ids = text(call.query.ids)
          .split(',')
          .filter((id) => this.dataset.devices.has(id));
        return Object.fromEntries((await this.snapshots(ids)).map((snapshot) => [snapshot.thingName, snapshot.latest]));
      },
      'GET /device-logs': (call) => {
        if (!this.dataset.devices.has(text(call.query.deviceId))) throw new DemoCallError(404, 'Device not found.');
        return simulatedLogs(this.link, call.query);
      },
      'GET /device/connections': (call) => {
        if (!this.dataset.devices.has(text(call.query.deviceId))) throw new DemoCallError(404, 'Device not found.');
        return simulatedConnections(this.connectedSince());
      },
      'GET /device/alarms': (call) => simulatedAlarms(text(call.query.deviceId)),
      'GET /alarms': () => ({ alarms: [] }),
      'GET /alerts': () => ({ alerts: [] }),
      'GET /scenes': async (call) =>
        text(call.query.groupId) === this.dataset.rootId ? demoScenes(this.dataset, await this.snapshots()) : [],
      'GET /inv/overview': async (call) => {
        const groupId = text(call.query.groupId);
        const region =
          groupId === this.dataset.rootId ? { id: groupId, name: this.dataset.fleet.accountName } : this.group(groupId);
        const stores = await this.stores(groupId === this.dataset.rootId ? null : groupId);
        return inventoryOverview(region, stores, this.showsInefficiency(), call.now);
      },
      'GET /inv/store-status': async (call) => {
        const [store] = await this.stores(this.group(text(call.query.groupId)).id);
        if (!store) throw new DemoCallError(404, 'Group not found.');
        return storeStatus(store, this.showsInefficiency(), call.now);
      },
      'GET /inv/store-device-logs': async (call) => {
        const groupId = this.group(text(call.query.groupId)).id;
        const end = call.now;
        const start = end - RETAIL_STORE_LOG_WINDOW_MS;
        const wanted = chartProductsAsked(text(call.query.productIds), MAX_CHART_PRODUCTS);
        if (typeof wanted === 'string') throw new DemoCallError(400, wanted);
        const products: Record<string, ChannelLog> = {};
        for (const { id, deviceId, code } of wanted) {
          if (this.dataset.devices.get(deviceId)?.group.id !== groupId) {
            throw new DemoCallError(404, 'Product not found.');
          }
          const logs = await this.link.logs({
            thingName: deviceId,
            codes: [code],
            start,
            end,
            binCount: YEARLY_OVERVIEW_BIN_COUNT,
          });
          products[id] = logs[code]!;
        }
        return { groupId, start, end, binWidth: binWidthOf(start, end, YEARLY_OVERVIEW_BIN_COUNT), products };
      },
      'GET /devices/table': async (call) => {
        const answer = await this.deviceTable();
        if (call.query.format !== DEVICE_TABLE_BINARY_QUERY) return answer;
        return new Response(encodeDeviceTableBinary(answer), {
          status: 200,
          headers: { 'content-type': DEVICE_TABLE_BINARY_TYPE },
        });
      },
      [`GET ${BREW_PATHS.overview}`]: async (call) => {
        const groupId = text(call.query.groupId);
        const selected = call.query.tankNumber === undefined ? null : Number(call.query.tankNumber);
        const overview = this.brewery.overview(this.group(groupId), await this.tanks(groupId), call.now, selected);
        // The selected tank carries its batch's log, read from the simulation like GET /device-logs.
        const tanks = await Promise.all(
          overview.tanks.map(async (tank) => {
            if (tank.tankNumber !== selected || !tank.batchInfo) return tank;
            const { channels, start, end, binCount } = tankLogQuery(
              tank.batchInfo.channelsMap,
              tank.batchInfo.date,
              call.now,
            );
            const query = { deviceId: tank.deviceId, channels: channels.join(','), start, end, binCount };
            return { ...tank, rawDeviceLogs: await simulatedLogs(this.link, query) };
          }),
        );
        return { ...overview, tanks };
      },
      [`GET ${BREW_PATHS.batches}`]: async (call) => this.brewery.batches(await this.tanks(text(call.query.groupId))),
      [`GET ${BREW_PATHS.batch}`]: (call) => this.brewery.batch(text(call.query.batchId)),
      [`POST ${BREW_PATHS.batch}`]: async (call) => {
        const start = body<Parameters<DemoBrewery['start']>[0]>(call);
        return this.brewery.start(start, await this.tanks(start.groupId), call.now);
      },
      [`PUT ${BREW_PATHS.batch}`]: (call) => this.brewery.update(body(call)),
      [`DELETE ${BREW_PATHS.batch}`]: (call) => this.brewery.remove(body(call)),
      [`POST ${BREW_PATHS.end}`]: (call) => this.brewery.end(body(call), call.now),
      [`DELETE ${BREW_PATHS.end}`]: (call) => this.brewery.resume(body(call), call.now),
      [`PUT ${BREW_PATHS.gravity}`]: (call) => this.brewery.putGravity(body(call), call.now),
      [`DELETE ${BREW_PATHS.gravity}`]: (call) => this.brewery.deleteItem(body(call), 'gravities'),
      [`PUT ${BREW_PATHS.sensory}`]: (call) => this.brewery.putSensory(body(call), call.now),
      [`DELETE ${BREW_PATHS.sensory}`]: (call) => this.brewery.deleteItem(body(call), 'sensories'),
      [`PUT ${BREW_PATHS.annotation}`]: (call) => this.brewery.putAnnotation(body(call), call.now),
      [`DELETE ${BREW_PATHS.annotation}`]: (call) => this.brewery.deleteItem(body(call), 'annotations'),
      [`PUT ${BREW_PATHS.calibration}`]: async (call) => {
        const calibration = body<Parameters<DemoBrewery['calibrate']>[0]>(call);
        return this.brewery.calibrate(calibration, await this.tanks(calibration.groupId), call.now);
      },
      [`POST ${BREW_PATHS.reportGenerate}`]: () => {
        throw new DemoCallError(403, DEMO_REPORTS_MESSAGE);
      },
    };
  }

  private async deviceTable(): Promise<DeviceTableAnswer> {
    const snapshots = await this.snapshotMap();
    const devices = demoFleetDevices(this.dataset.fleet).flatMap((device) => {
      const snapshot = snapshots.get(device.thingName);
      const record = snapshot && deviceRecord(this.dataset, device.thingName, snapshot, this.connectedSince());
      return record ? [record] : [];
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
  const link = new SimulationLink(
    demoFleetDevices(fleet).map(({ thingName, kind }) => ({ thingName, kind })),
    records.begunAt - DEMO_HISTORY_DAYS * DAY,
  );
  const save = () => saveDemoRecords(records);
  if (!records.brewery) {
    const tankDevices = demoFleetDevices(fleet).filter((device) => device.kind === 'brewTank');
    const snapshots = tankDevices.length > 0 ? await link.snapshots(tankDevices.map((device) => device.thingName)) : [];
    records.brewery = firstBreweryRecords(
      snapshots.map((snapshot, index) => ({
        ...snapshot,
        name: tankDevices[index]!.name,
        custom: snapshot.identity.custom,
      })),
      Date.now(),
    );
  }
  if (!stored) await save();
  return new DemoBackend(dataset, link, records, new DemoBrewery(records.brewery, save));
}
