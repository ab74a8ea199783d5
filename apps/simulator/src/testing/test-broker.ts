import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';

/** A real MQTT broker on a free loopback port for tests, checking username and password. */
export interface TestBroker {
  readonly url: string;
  readonly port: number;
  readonly aedes: Aedes;
  /** Drops a client's connection as a network fault would, so the broker publishes its will. */
  dropClient(clientId: string): void;
  close(): Promise<void>;
}

export async function startTestBroker(
  credentials: ReadonlyMap<string, string>,
  options: { port?: number } = {},
): Promise<TestBroker> {
  const aedes = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      const expected = username === undefined ? undefined : credentials.get(username);
      if (expected !== undefined && client.id === username && password?.toString('utf8') === expected) {
        done(null, true);
        return;
      }
      const error = Object.assign(new Error('Bad username or password'), { returnCode: 4 }) as AuthenticateError;
      done(error, null);
    },
  });
  const server: Server = createServer(aedes.handle);
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    aedes,
    dropClient: (clientId) => {
      const client = (aedes as unknown as { clients: Record<string, { conn: { destroy(): void } }> }).clients[clientId];
      client?.conn.destroy();
    },
    close: async () => {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
