import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { CLIENT_VERSION } from '@fieldlink/api/session';

/** The OpenAPI description of `/api/v1` and its pages at `/api/v1/docs`: registered before the routes it lists. */
export const apiDocsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Fieldlink API',
          version: CLIENT_VERSION,
          description: 'Calls of the Fieldlink console. Send the session token in the `authorization` header.',
        },
        components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'authorization' } } },
        security: [{ token: [] }],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/v1/docs' });
  },
  { name: 'api-docs' },
);
