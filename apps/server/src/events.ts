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
