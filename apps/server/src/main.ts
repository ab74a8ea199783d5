import { readFileSync } from 'node:fs';
import { loadConfig, type Config } from './config';
import type { DeviceBroker } from './broker/device-broker';
import { isPostgresUrl, migrate, openStorage } from './db/database';
import { buildApp } from './app';
import { demoFleet, demoSignIns, seedDemo } from './seed/seed';
// The server's one import of another app (a lint zone holds it): the demo fleet runs in this process.
import { startFleet, type Fleet } from '@fieldlink/simulator/fleet';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import { provisionDemoFleet } from './cluster/demo-fleet';
import { withStartupLock } from './cluster/startup-lock';
import { listenAddress } from './security/demo-exposure';
import { exitOnUncaughtError, STDERR_LOGGER, type FatalLogger } from './process-faults';
import { answerDeviceClockRequests } from './simulator-clock';
import { missingServerNodeOptions } from './node-options';

/** The process's log for a fatal error: standard error until the app's logger exists. */
let fatalLogger: FatalLogger = STDERR_LOGGER;
exitOnUncaughtError(() => fatalLogger);

/** How long a stop may take to flush writes and close connections before the process exits 1. */
const STOP_DEADLINE_MS = 10_000;
/** Of which the requests in flight get at most this long to finish. */
const DRAIN_DEADLINE_MS = 4_000;

/** The banner's lines for where devices connect. */
function mqttLines(broker: DeviceBroker, config: Config): string[] {
  if (broker.kind === 'external')
    return [`  MQTT:       ${broker.deviceUrl} (external broker; instance ${config.instanceId})`];
  const host = new URL(config.publicUrl).hostname;
  const lines: string[] = [];
  if (broker.tlsPort !== null)
    lines.push(`  MQTT (TLS): mqtts://${host}:${broker.tlsPort} and wss://${host}:${config.port}/mqtt`);
  if (config.mqttPort !== 0) {
    const ws = config.tls ? '' : ` and ws://${host}:${config.port}/mqtt`;
    lines.push(
      `  MQTT:       mqtt://${host}:${broker.port}${ws}${config.tls ? ' (plain: MQTT_PORT=0 turns it off)' : ''}`,
    );
  }
  return lines;
}

/** `npm start`: one process with the API, the SPA, the embedded broker and the demo fleet. */
async function main(): Promise<void> {
  const config = loadConfig();
  const storage = openStorage(config.databaseUrl);
  const ahead = await migrate(storage.db);
  if (ahead.length > 0) {
    console.warn(`The database is a later release's (${ahead.join(', ')}): running on it as it is, side by side.`);
  }
  // The demo history's plant models, for the fleet to carry on from where the history ends.
  const liveModels = new Map<string, DeviceModel>();
  const seeded = config.demo
    ? await withStartupLock(storage, (db) => seedDemo(db, config.demoPassword, config.demoHistoryDays, liveModels))
    : false;
  // Decided before anything starts: a HOST that would expose the published demo password stops here.
  const listen = await listenAddress(storage.db, config.host);
  const app = await buildApp({
    config,
    storage,
    mqttPort: config.mqttPort,
    plainMqtt: config.mqttPort !== 0,
    logger: { level: config.logLevel, transport: undefined },
  });
  fatalLogger = app.log;
  const missingOptions = missingServerNodeOptions();
  if (missingOptions.length > 0)
    app.log.warn(
      { missing: missingOptions },
      'Started without Node.js options the server is meant to run with (docs/operations.md, "Node.js options")',
    );
  const broker = app.broker!;
  // An external broker keeps its own device accounts: the demo devices get theirs (again) at start,
  // before this instance answers its health check.
  if (broker.kind === 'external' && config.demo) await provisionDemoFleet(broker, await demoFleet(storage.db));
  await app.listen({ port: config.port, host: listen.host });

  let fleet: Fleet | null = null;
  if (config.simulator) {
    const devices = await demoFleet(storage.db);
    if (devices.length > 0) {
      fleet = await startFleet({
        brokerUrl: broker.deviceUrl,
        // Over TLS (plain MQTT off) the fleet checks the server as a device does: its certificate, its name.
        ...(config.tls && {
          tls: { ca: readFileSync(config.tls.certFile, 'utf8'), servername: new URL(config.publicUrl).hostname },
        }),
        devices: devices.map((device) => ({ ...device, model: liveModels.get(device.thingName) })),
        logIntervalSeconds: config.simulatorInterval,
        logger: app.log,
      });
      // The e2e harness moves the devices' clocks over an IPC channel; without one this does nothing.
      answerDeviceClockRequests(fleet);
    }
  }

  const where = isPostgresUrl(config.databaseUrl) ? 'PostgreSQL' : `SQLite ${config.databaseUrl}`;
  const lines = [
    '',
    `  Fieldlink is running at ${config.publicUrl}`,
    listen.publishedPasswordUser
      ? `  Listening:  on ${listen.host} only: demo users have the published password (README, "Demo sign-ins")`
      : `  Listening:  on ${listen.host}`,
    `  API docs:   ${config.publicUrl}/api/v1/docs`,
    ...mqttLines(broker, config),
    `  Storage:    ${where}${seeded ? ' (demo data seeded)' : ''}`,
    fleet ? `  Simulator:  ${fleet.devices.length} demo devices connected over MQTT` : '  Simulator:  off',
  ];
  if (config.demo) {
    lines.push('', `  Demo sign-ins (password: ${config.demoPassword}):`);
    for (const signIn of demoSignIns())
      lines.push(`    ${signIn.email.padEnd(24)} ${signIn.account.padEnd(20)} ${signIn.permissions}`);
  }
  console.log(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'Stopping: flushing pending writes and closing connections');
    // A supervisor waits a little longer (docs/operations.md: TimeoutStopSec=15) before its SIGKILL.
    const forced = setTimeout(() => process.exit(1), STOP_DEADLINE_MS);
    forced.unref();
    // Behind a load balancer the next requests go to another instance (docs/operations.md §12).
    await app.drain(DRAIN_DEADLINE_MS);
    await fleet?.stop();
    await app.close();
    console.log('Fieldlink stopped cleanly.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  // The stack begins with the message: a refused setting reads first, and a fault can be traced.
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
