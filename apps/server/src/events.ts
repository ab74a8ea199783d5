import { EventEmitter } from 'node:events';
import type { ServerAction } from '@fieldlink/api/realtime';

/** A device event on its way to the browsers watching that device. */
export type DeviceEvent = Exclude<ServerAction, { type: 'server/reply' } | { type: 'server/error' }>;

/**
 * The in-process event bus between ingest and the real-time hub. Every event names its device, so
 * the hub delivers it only to sockets subscribed to that device.
 */
export class DeviceEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(event: DeviceEvent): void {
    this.emitter.emit('device', event);
  }

  on(listener: (event: DeviceEvent) => void): () => void {
    this.emitter.on('device', listener);
    return () => this.emitter.off('device', listener);
  }
}
