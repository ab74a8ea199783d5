import fp from 'fastify-plugin';
import { DATABASE_CREDENTIALS, type DeviceBroker, type DeviceCredentialStore } from '../broker/device-broker';
import type { EventRelay } from '../cluster/event-relay';
import { InboxMover } from '../db/log-inbox';
import { RollupInboxMover } from '../db/log-rollup-inbox';
import { DeviceEvents } from '../events';
import { audit } from '../features/audit/service';
import { LogMaintenance } from '../features/devices/log-maintenance';
import { CommandService } from '../realtime/commands';
import { DeviceDirectory } from './device-directory';
import { FrameWriter, POSTGRES_BATCHES_IN_FLIGHT } from './frame-writer';
import { Ingest } from './ingest';
import { SqliteWriterThread } from './sqlite-writer-thread';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device events on their way to the real-time hub, the followers and (in a cluster) the relay. */
    events: DeviceEvents;
    directory: DeviceDirectory;
    writer: FrameWriter;
    ingest: Ingest;
    commands: CommandService;
    /** The device broker, once the broker plugin has started it (null without one). */
    broker: DeviceBroker | null;
    /** Carries events and replies to the other instances (cluster mode only). */
    relay: EventRelay | null;
    /** Where device accounts are kept: the database, or an external broker's own (cluster mode). */
    deviceAccounts: DeviceCredentialStore;
  }
}

/**
 * The way in for device frames: the directory of devices, the batched writer, ingest itself and the
 * commands sent back, plus the hourly log maintenance that shares the SQLite writer thread.
 */
export const ingestPlugin = fp(
  async (app) => {
    const { commandTimeoutMs } = app.launch;
    const { storage, config } = app;
    const { db } = storage;
    const events = new DeviceEvents();
    const directory = new DeviceDirectory(db, events);
    // A SQLite file's batches are written by a thread of their own; PostgreSQL writes several at a time.
    const writerThread = storage.file ? new SqliteWriterThread(storage.file) : null;
    // SQLite commits samples into its inbox, moved into `logs` between batches (db/log-inbox.ts): by
    // the writer thread for a file, here for an in-memory database.
    const inbox =
      storage.dialect === 'sqlite' && !writerThread
        ? new InboxMover(db, { onError: (error) => app.log.error({ err: error }, 'Moving the log inbox failed') })
        : undefined;
    // PostgreSQL's batches append what they add to the roll-ups and latest values to an inbox, folded
    // in about once a second (db/log-rollup-inbox.ts).
    const rollupInbox =
      storage.dialect === 'postgres'
        ? new RollupInboxMover(db, {
            onError: (error) => app.log.error({ err: error }, 'Moving the roll-up inbox failed'),
          })
        : undefined;
    const writer = new FrameWriter(db, {
      concurrency: storage.dialect === 'postgres' ? POSTGRES_BATCHES_IN_FLIGHT : 1,
      store: writerThread ? (writes) => writerThread.write(writes) : undefined,
      latestFromSamples: writerThread !== null,
      inbox,
      onCommitted: (committed) => committed.forEach((event) => events.emit(event)),
      onError: (error) => app.log.error({ err: error }, 'Frame batch not stored'),
    });
    const commands = new CommandService(
      async (thingName, command) => {
        if (!app.broker) throw new Error('No broker');
        await app.broker.sendCommand(thingName, command);
      },
      (entry) => audit.recordAlone(db, entry),
      commandTimeoutMs,
    );
    // A reply may reach any instance; the one waiting for it may be another (cluster/event-relay.ts).
    const replies = {
      resolve: (thingName: string, reply: Parameters<CommandService['resolve']>[1]) => {
        commands.resolve(thingName, reply);
        app.relay?.relayReply(thingName, reply);
      },
    };
    const ingest = new Ingest(db, writer, directory, replies, app.log);
    app.decorate('events', events);
    app.decorate('directory', directory);
    app.decorate('writer', writer);
    app.decorate('ingest', ingest);
    app.decorate('commands', commands);
    app.decorate('broker', null);
    app.decorate('relay', null);
    app.decorate('deviceAccounts', DATABASE_CREDENTIALS);

    // A SQLite file's runs go to the writer thread, their slices queued between ingest's batches.
    const logMaintenance = new LogMaintenance(db, storage.dialect, config.logRetention, {
      now: app.clock,
      runner: writerThread ?? undefined,
    });
    logMaintenance.start(app.jobs, config.logMaintenanceMinutes, app.log);

    // Write what is pending once no more frames come in.
    app.shutdown.add('ingest', async () => {
      commands.cancelAll();
      await writer.flush();
      await writerThread?.close();
      await inbox?.close();
      await rollupInbox?.close();
    });
    app.shutdown.add('logMaintenance', () => logMaintenance.stop());
  },
  { name: 'ingest', dependencies: ['settings', 'storage', 'shutdown', 'jobs'] },
);
