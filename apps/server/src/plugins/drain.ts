import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Stops taking HTTP connections and lets the requests in flight finish, so an instance replaced
 * behind a load balancer answers every request it took (docs/operations.md, "Upgrades without
 * downtime"). The listener closes first: the balancer's next connection attempt is refused and it
 * sends the request to another instance. Answers given while draining carry `Connection: close`, so
 * no kept-alive connection is used again. WebSocket upgrades are not counted: the real-time channel
 * is closed by the hub when the app closes, and browsers reconnect elsewhere.
 */
function trackRequestsForDrain(app: FastifyInstance): (deadlineMs: number) => Promise<void> {
  const inFlight = new Set<FastifyRequest>();
  let draining = false;
  let settled: (() => void) | null = null;
  const done = (request: FastifyRequest) => {
    if (inFlight.delete(request) && inFlight.size === 0) settled?.();
  };
  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade === undefined) inFlight.add(request);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request) => done(request));
  app.addHook('onRequestAbort', async (request) => done(request));

  return async (deadlineMs) => {
    draining = true;
    // Node also closes the idle kept-alive connections here; the busy ones end after their answer.
    if (app.server.listening) app.server.close();
    if (inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (settled = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs))),
    ]);
    clearTimeout(timer);
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Closes the HTTP listener and waits (at most `deadlineMs`) for the requests in flight: a stop's first step. */
    drain: (deadlineMs: number) => Promise<void>;
  }
}

/** `app.drain`, counting every request from here on. */
export const drainPlugin = fp(
  async (app) => {
    app.decorate('drain', trackRequestsForDrain(app));
  },
  { name: 'drain' },
);
