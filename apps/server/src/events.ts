import { EventEmitter } from 'node:events';
import type { ServerAction } from '@fieldlink/api/realtime';

/** A device event on its way to the browsers watching that device. */
export type DeviceEvent = Exclude<
  ServerAction,
  | { type: 'server/reply' }
  | { type: 'server/error' }
  | { type: 'server/reportProgress' }
  | { type: 'server/deviceTableChanges' }
>;

/**
 * A change to who may see what, which the open real-time sockets of every instance must follow at
 * once (SECURITY.md 3): a signed-out session or revoked API token (its sockets close), users whose
 * sessions ended or whose permissions or place changed (theirs close with `code`), devices moved
 * (their watchers are authorised again). In a cluster the relay carries it to the other instances.
 */
export type AccessChange =
  | { kind: 'tokenEnded'; tokenId: string }
  | { kind: 'usersChanged'; userIds: string[]; code: number }
  | { kind: 'devicesMoved'; thingNames: string[] };

/** `local`: stored by this process; `remote`: stored by another instance of the cluster and relayed here. */
export type EventOrigin = 'local' | 'remote';

/**
 * The in-process event bus between ingest and the real-time hub. Every event names its device, so
 * the hub delivers it only to sockets subscribed to that device. In a cluster the relay
 * (`cluster/event-relay.ts`) sends local events to the other instances and emits theirs here as
 * remote, so a browser on any instance sees what any instance stored.
 */
export class DeviceEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(event: DeviceEvent, origin: EventOrigin = 'local'): void {
    this.emitter.emit('device', event, origin);
  }

  on(listener: (event: DeviceEvent, origin: EventOrigin) => void): () => void {
    this.emitter.on('device', listener);
    return () => this.emitter.off('device', listener);
  }
}
