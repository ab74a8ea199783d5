import fp from 'fastify-plugin';
import { REALTIME_SESSION_CHECK_MS } from '@fieldlink/domain/realtime-limits';
import type { AccessChange } from '../events';
import { groupPathsByThingName } from '../features/devices/repository';
import { currentAccess } from '../features/session/user-context';
import { openTokenIds } from '../security/open-tokens';
import { RealtimeHub } from './hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** The real-time sockets of this instance (their routes: plugins/realtime.ts). */
    hub: RealtimeHub;
    /** Sign-outs, revoked tokens and moves: closes or re-checks sockets here and on every other instance. */
    accessChanged: (change: AccessChange) => void;
  }
}

export const hubPlugin = fp(
  async (app) => {
    const { events } = app;
    const hub = new RealtimeHub(app.devices, app.commands, app.log, app.config.realtimeMessagesPerSecond, (event) =>
      events.emit(event),
    );
    events.on((event) => hub.publish(event));
    hub.startSessionChecks({
      openTokenIds: (held, at) => openTokenIds(app.storage.db, held, at),
      currentAccess: (held) => currentAccess(app.storage.db, held),
      groupPaths: (thingNames) => groupPathsByThingName(app.storage.db, thingNames),
      now: app.clock,
      everyMs: REALTIME_SESSION_CHECK_MS,
    });
    app.decorate('hub', hub);
    app.decorate('accessChanged', (change: AccessChange) => {
      hub.applyAccessChange(change);
      app.relay?.relayAccess(change);
    });
  },
  { name: 'hub', dependencies: ['settings', 'storage', 'ingest', 'devices'] },
);
