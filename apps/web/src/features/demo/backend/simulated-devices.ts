import { DEMO_HISTORY_MS, demoFleetDeviceNamed } from '@fieldlink/simulation/demo-fleet';
import type { PlacedDevice } from '../../../lib/account-tree';
import type { LocalBackend, LocalCall } from '../../../lib/demo/demo-session';
import type { SocketLike } from '../../../lib/realtime/realtime-client';
import { simulatedDeviceRecord, type SimulatedDevicePlace } from './demo-dataset';
import { answerCall, type DemoCalls } from './demo-calls';
import { simulatedDeviceCalls } from './simulated-calls';
import { SimulationLink } from './simulation-link';

const DAY = 86_400_000;

/**
 * A signed-in account's `_DEMO` devices (a demo account's: core §1, §3), simulated in this browser
 * by the worker the demo uses. Their calls (record, latest values, logs, connections, alarms) are
 * answered here and their values reach the real-time store through the same socket path as live ones;
 * every other call and device goes to the server, which keeps these devices as entities only.
 */
export class SimulatedDevicesBackend implements LocalBackend {
  private readonly calls: DemoCalls;

  constructor(
    private readonly places: ReadonlyMap<string, SimulatedDevicePlace>,
    private readonly link: SimulationLink,
    since: number,
  ) {
    this.calls = simulatedDeviceCalls({
      link,
      since,
      has: (id) => places.has(id),
      record: (id, snapshot) => simulatedDeviceRecord(id, places.get(id)!, snapshot, since),
      serverKeepsOthers: true,
    });
  }

  answer(call: LocalCall): Promise<Response> | null {
    const route = this.calls[`${call.method} ${call.path}`];
    // A call about a simulated device is answered here; one naming only the server's devices goes there.
    const named = String(call.query.ids ?? call.query.id ?? call.query.deviceId ?? '').split(',');
    return route && named.some((id) => this.places.has(id)) ? answerCall(route, call) : null;
  }

  createSocket(url: string, protocols: string[]): SocketLike {
    return new SplitSocket(new WebSocket(url, protocols), this.link.createSocket(), (thingName) =>
      this.places.has(thingName),
    );
  }

  stop(): void {
    this.link.terminate();
  }
}

/**
 * The real-time socket of a session with simulated devices: a WebSocket to the server and a socket
 * to the worker, seen by the client as one. Requests about simulated devices go to the worker, all
 * others to the server; a subscription naming both kinds is split, the worker's part under an id of
 * its own (so the client takes the server's reply). Both sides' frames reach `onmessage`.
 */
export class SplitSocket implements SocketLike {
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(
    private readonly remote: SocketLike,
    private readonly local: SocketLike,
    private readonly simulates: (thingName: string) => boolean,
  ) {
    remote.onopen = (event) => this.onopen?.(event);
    remote.onerror = (event) => this.onerror?.(event);
    remote.onmessage = (event) => this.onmessage?.(event);
    local.onmessage = (event) => this.onmessage?.(event);
    remote.onclose = (event) => {
      this.local.close();
      this.onclose?.(event);
    };
  }

  get readyState(): number {
    return this.remote.readyState;
  }

  send(data: string): void {
    const action = JSON.parse(data) as { id?: string; thingName?: unknown; thingNames?: unknown };
    if (Array.isArray(action.thingNames)) {
      const names = action.thingNames as string[];
      const simulated = names.filter(this.simulates);
      const others = names.filter((name) => !this.simulates(name));
      if (simulated.length === 0) return this.remote.send(data);
      if (others.length === 0) return this.local.send(data);
      this.remote.send(JSON.stringify({ ...action, thingNames: others }));
      this.local.send(JSON.stringify({ ...action, id: `${action.id}:simulated`, thingNames: simulated }));
      return;
    }
    if (typeof action.thingName === 'string' && this.simulates(action.thingName)) return this.local.send(data);
    this.remote.send(data);
  }

  close(code?: number, reason?: string): void {
    this.local.close();
    this.remote.close(code, reason);
  }
}

/**
 * Simulates the devices: each with the plant of its demo fleet (a controller's when it belongs to
 * none), its history from 30 days before today (so every visit of the day shows the same plant).
 */
export function createSimulatedDevicesBackend(devices: readonly PlacedDevice[]): SimulatedDevicesBackend {
  const places = new Map<string, SimulatedDevicePlace>();
  const simulated = devices.map(({ device, account, group }) => {
    const fleetDevice = demoFleetDeviceNamed(device.thingName);
    places.set(device.id, {
      accountId: account.id,
      groupId: group.id,
      path: group.relativePath,
      name: device.name,
      site: fleetDevice?.site ?? null,
      location: fleetDevice ? { ...fleetDevice.location } : null,
      tags: device.tags ?? [],
    });
    return { thingName: device.thingName, kind: fleetDevice?.kind ?? 'generic' };
  });
  const since = Math.floor(Date.now() / DAY) * DAY - DEMO_HISTORY_MS;
  return new SimulatedDevicesBackend(places, new SimulationLink(simulated, since), since);
}
