import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BREW_ROUTES } from '@fieldlink/api/brew';
import { BREW_CALLS } from '@fieldlink/services/brew-service';
import { signedInUser } from '../../plugins/auth';
import { registerRouteCalls } from '../session/route-calls';
import type { BrewService } from './service';

/**
 * Brewing calls of application §7: the shared ones (`BREW_CALLS`, which the browser demo answers
 * too) each at its declared route, and the batch reports.
 */
export const brewRoutes: FastifyPluginAsyncTypebox<{ brew: BrewService }> = async (app, { brew }) => {
  app.addHook('onRequest', app.authenticate);
  registerRouteCalls(app, BREW_CALLS, (user) => brew.calls(user));
  app.route({
    ...BREW_ROUTES.generateReport,
    handler: (request) => brew.generateReport(signedInUser(request), request.body),
  });
  app.route({
    ...BREW_ROUTES.reportUrl,
    handler: (request) => brew.reportUrl(signedInUser(request), request.query.id),
  });
  app.route({
    ...BREW_ROUTES.reportState,
    handler: (request) => brew.reportState(signedInUser(request), request.query.id),
  });
};
