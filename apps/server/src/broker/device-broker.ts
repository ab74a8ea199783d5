import type { Duplex } from 'node:stream';
import type { DeviceCommand } from '@fieldlink/api/device-frames';
import { HttpError } from '../http-errors';

/**
 * The connectivity every broker implementation gives the rest of the server: the embedded Aedes
 * broker (one process) and an existing broker named by `MQTT_URL` (a cluster). Both feed the same
 * `Ingest`.
 */
export interface DeviceBroker {
  readonly kind: 'embedded' | 'external';
  /** Port of the embedded plain MQTT listener; 0 for an external broker or with plain MQTT off. */
  readonly port: number;
  /** Port of the embedded MQTT over TLS listener; null without TLS and for an external broker. */
  readonly tlsPort: number | null;
  /** Where devices, and the demo fleet, connect. */
  readonly deviceUrl: string;
  /**
   * Feeds an MQTT-over-WebSocket stream into the broker (embedded only: an external broker has its
   * own); `source` is the address it comes from, which failed connects count against.
   */
  handleStream(stream: Duplex, source: string): void;
  sendCommand(thingName: string, command: DeviceCommand): Promise<void>;
  /** MQTT connections this process holds: devices for the embedded broker, its own sessions for an external one. */
  connectedClients(): number;
  close(): Promise<void>;
}

/**
 * Device credentials kept by the broker itself (Mosquitto's dynamic security). The embedded broker
 * checks credentials against the database and keeps nothing here.
 */
export interface DeviceCredentialStore {
  /** Lets the device sign in with this password and use its own two topics; throws if the broker cannot be told. */
  provision(thingName: string, password: string): Promise<void>;
  /** Removes the device's account (it can no longer connect). */
  remove(thingName: string): Promise<void>;
}

/** The store of the embedded broker, which reads credentials from the database. */
export const DATABASE_CREDENTIALS: DeviceCredentialStore = {
  provision: async () => undefined,
  remove: async () => undefined,
};

export interface CredentialLogger {
  warn(object: object, message: string): void;
}

/**
 * The store in use (known once the broker has started), with a broker failure answered as 503: the
 * caller may try again, and nothing was stored.
 */
export function brokerCredentials(
  current: () => DeviceCredentialStore,
  logger: CredentialLogger,
): DeviceCredentialStore {
  const unavailable = (error: unknown): never => {
    logger.warn({ error: (error as Error).message }, 'Device account not changed at the MQTT broker');
    throw new HttpError(503, 'The device broker is unavailable. Please try again.');
  };
  return {
    provision: (thingName, password) => current().provision(thingName, password).catch(unavailable),
    remove: (thingName) => current().remove(thingName).catch(unavailable),
  };
}
