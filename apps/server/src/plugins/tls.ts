import fp from 'fastify-plugin';
import type { TlsCredentials } from '../security/tls-credentials';

declare module 'fastify' {
  interface FastifyInstance {
    /** The HTTPS server's certificate (reloaded on change), which MQTT over TLS serves too; null without TLS. */
    tlsCredentials: TlsCredentials | null;
  }
}

/** The certificate {@link serverInstance} read, for the broker; its file watch stops first on shutdown. */
export const tlsPlugin = fp<{ credentials: TlsCredentials | null }>(
  async (app, { credentials }) => {
    app.decorate('tlsCredentials', credentials);
    app.shutdown.add('tls', () => credentials?.close());
  },
  { name: 'tls', dependencies: ['shutdown'] },
);
