import { readFileSync } from 'node:fs';
import { formatSummary, parseCliArgs, USAGE, type CliOptions } from './cli-options';
import { startFleet, type Fleet } from './fleet';

/**
 * Load-test entry point: `npm run simulator -- --credentials devices.json --broker mqtt://host:1883`.
 * Prints a summary line periodically and stops gracefully (every device says goodbye) on SIGINT or
 * SIGTERM, or after `--duration`.
 */

/** After a stop request, the longest wait for the goodbyes before exiting anyway. */
const STOP_GRACE_MS = 15_000;

function parse(): CliOptions {
  try {
    const request = parseCliArgs(process.argv.slice(2), (path) => readFileSync(path, 'utf8'));
    if (request.help) {
      console.log(USAGE);
      process.exit(0);
    }
    return request;
  } catch (error) {
    console.error(`simulator: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const options = parse();
  console.log(`simulator: starting ${options.devices.length} devices against ${options.brokerUrl}`);
  const starting = startFleet({
    brokerUrl: options.brokerUrl,
    devices: options.devices,
    logIntervalSeconds: options.logIntervalSeconds,
    valuesPerFrame: options.valuesPerFrame,
    logger: {
      info: (message) => console.log(message),
      warn: (message) => console.warn(message),
      error: (message) => console.error(message),
    },
  });

  /** Summary and duration clocks, cleared when stopping. */
  const clocks: NodeJS.Timeout[] = [];
  let stopping = false;
  const shutdown = async (reason: string): Promise<void> => {
    if (stopping) {
      // A second signal means "now".
      process.exit(1);
    }
    stopping = true;
    for (const clock of clocks) clearTimeout(clock);
    console.log(`simulator: ${reason}, stopping`);
    setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
    // A signal during start-up waits for the fleet, so the devices already online still say goodbye.
    const fleet = await starting.catch(() => undefined);
    if (fleet) {
      const before = fleet.stats();
      await fleet.stop();
      console.log(formatSummary(fleet.stats(), before, 0));
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const fleet: Fleet = await starting;
  if (stopping) return;
  let previous = fleet.stats();
  let previousAt = Date.now();
  clocks.push(
    setInterval(() => {
      const now = fleet.stats();
      console.log(formatSummary(now, previous, (Date.now() - previousAt) / 1000));
      previous = now;
      previousAt = Date.now();
    }, options.summaryIntervalSeconds * 1000),
  );
  const { durationSeconds } = options;
  if (durationSeconds !== undefined) {
    clocks.push(setTimeout(() => void shutdown(`${durationSeconds} s elapsed`), durationSeconds * 1000));
  }
}

main().catch((error: unknown) => {
  console.error(`simulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
