import type { FastifyInstance } from 'fastify';
import type { RouteCall, RouteInput } from '@fieldlink/services/route-calls';
import { signedInUser } from '../../plugins/auth';
import { requireCapability } from './access';
import type { UserContext } from './user-context';

/**
 * Registers a call table shared with the browser demo (`@fieldlink/services`) at its declared routes:
 * each call checks the capabilities it needs for the caller, then answers over `callsFor(caller)`.
 */
export function registerRouteCalls<C>(
  app: FastifyInstance,
  table: readonly RouteCall<C>[],
  callsFor: (user: UserContext) => C,
): void {
  for (const { route, capabilities, answer } of table) {
    app.route({
      ...route,
      handler: (request) => {
        const user = signedInUser(request);
        // Fastify has checked the query and body by the route's own schema.
        const input = request as unknown as RouteInput;
        for (const capability of capabilities(input)) requireCapability(user, capability);
        return answer(callsFor(user), input);
      },
    });
  }
}
