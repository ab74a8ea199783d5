import type { Kysely } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceDownTopic, deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { moveInbox } from '../../src/db/log-inbox';
import type { Database } from '../../src/db/schema';

export interface LoadDevice {
  thingName: string;
  password: string;
}

/** The channel the load writes: its value is the sample's sequence number, so a time names its value. */
export const LOAD_CODE = 'c9';

/**
 * Devices that behave as the protocol asks (will, `conn` after connecting, reconnect) and publish a
 * QoS 1 `log` frame every `intervalMs`, counting each frame the broker acknowledged: those must all
 * be stored, whatever fails meanwhile.
 */
export class DeviceLoad {
  readonly clients = new Map<string, MqttClient>();
  /** Times of acknowledged samples, per device. */
  readonly acked = new Map<string, number[]>();
  private timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private sequence = 0;
  readonly base = Date.now() - 3_600_000;
  /** Told each sample's time as it is published (a test timing publish-to-stored). */
  onPublish: ((t: number) => void) | null = null;

  constructor(
    private readonly url: string,
    private readonly devices: readonly LoadDevice[],
  ) {}

  async connect(): Promise<void> {
    await Promise.all(
      this.devices.map(async ({ thingName, password }) => {
        const client = await mqtt.connectAsync(this.url, {
          clientId: thingName,
          username: thingName,
          password,
          clean: true,
          reconnectPeriod: 500,
          connectTimeout: 5000,
          will: {
            topic: deviceUpTopic(thingName),
            payload: Buffer.from('{"v":4,"type":"conn","connected":false}'),
            qos: 1,
            retain: false,
          },
        });
        const hello = () =>
          void client
            .subscribeAsync(deviceDownTopic(thingName), { qos: 1 })
            .then(() =>
              client.publishAsync(
                deviceUpTopic(thingName),
                JSON.stringify({ v: 4, type: 'conn', t: Date.now(), connected: true }),
                { qos: 1 },
              ),
            )
            .catch(() => undefined);
        client.on('connect', hello);
        client.on('error', () => undefined);
        hello();
        this.clients.set(thingName, client);
        this.acked.set(thingName, []);
      }),
    );
  }

  /** Starts publishing; each device one frame per interval, spread over the interval. */
  start(intervalMs: number): void {
    [...this.clients].forEach(([thingName, client], index) => {
      const offset = (index * intervalMs) / this.clients.size;
      const timer = setTimeout(() => {
        const tick = setInterval(() => this.publish(thingName, client), intervalMs);
        this.timers.push(tick);
      }, offset);
      this.timers.push(timer);
    });
  }

  /** Stops publishing and waits (bounded) for the frames still in flight. */
  async stop(timeoutMs = 30_000): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    const deadline = new Promise((resolve) => setTimeout(resolve, timeoutMs));
    await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
  }

  async close(): Promise<void> {
    await this.stop(1000);
    await Promise.all([...this.clients.values()].map((client) => client.endAsync(true)));
  }

  /** The time of the newest frame published so far (times grow with each frame, across the fleet). */
  lastPublished(): number {
    return this.base + this.sequence;
  }

  ackedCount(): number {
    let total = 0;
    for (const times of this.acked.values()) total += times.length;
    return total;
  }

  /** The value a sample of this time carries. */
  valueAt(t: number): number {
    return t - this.base;
  }

  private publish(thingName: string, client: MqttClient): void {
    // Unique times across the fleet: a sample is named by its device and time.
    this.sequence += 1;
    const t = this.base + this.sequence;
    const frame = { v: 4, type: 'log', t, values: { [LOAD_CODE]: this.valueAt(t) } };
    this.onPublish?.(t);
    const sent = client.publishAsync(deviceUpTopic(thingName), JSON.stringify(frame), { qos: 1 }).then(
      () => this.acked.get(thingName)!.push(t),
      () => undefined, // not acknowledged: the device keeps no promise about it
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }
}

/**
 * How many of the acknowledged samples (device -> times, as {@link DeviceLoad.acked}) the database
 * does not hold in its logs, after moving SQLite's inbox into them.
 */
export async function missingAcknowledged(
  db: Kysely<Database>,
  acked: ReadonlyMap<string, readonly number[]>,
): Promise<number> {
  await moveInbox(db);
  const devices = await db.selectFrom('devices').select(['id', 'thing_name']).execute();
  const ids = new Map(devices.map((row) => [row.thing_name, row.id]));
  let missing = 0;
  for (const [thingName, times] of acked) {
    if (times.length === 0) continue;
    const rows = await db
      .selectFrom('logs')
      .select('t')
      .where('device_id', '=', ids.get(thingName)!)
      .where('code', '=', LOAD_CODE)
      .execute();
    const stored = new Set(rows.map((row) => Number(row.t)));
    missing += times.filter((t) => !stored.has(t)).length;
  }
  return missing;
}
