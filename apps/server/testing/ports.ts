import { randomInt } from 'node:crypto';
import net from 'node:net';

/**
 * Ports a test server listens on: below Linux's ephemeral range (32768-60999), where the kernel puts
 * the local end of every outgoing connection. A port the kernel hands out as free (`listen(0)`) comes
 * from that range, and between its release and the server's listen an outgoing connection of another
 * test (a PostgreSQL pool, a fetch) could take it: a server then failed with EADDRINUSE.
 */
const TEST_PORTS = { low: 20_000, high: 32_000 };

/** Whether a server can listen on the port, on every address (as the MQTT broker does). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A free TCP port for a test server, drawn at random from {@link TEST_PORTS}. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = randomInt(TEST_PORTS.low, TEST_PORTS.high);
    if (await canListen(port)) return port;
  }
}
