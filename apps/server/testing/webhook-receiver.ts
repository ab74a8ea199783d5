import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver took, with whether its signature matched the secret of its path. */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: { id: string; type: string; time: string; accountId: string; summary: string; data: Record<string, unknown> };
  signatureValid: boolean;
  /** `performance.timeOrigin + performance.now()` when the last byte arrived. */
  receivedAt: number;
}

/**
 * A webhook receiver as a customer would run one: a real HTTP server on loopback that checks every
 * request's `x-fieldlink-signature` against the secret registered for its path (the HMAC-SHA256 of
 * the raw body), and answers what the test asks (204 unless told otherwise).
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const secrets = new Map<string, string>();
  let answer: (request: { path: string; attempt: number; eventId: string }) => number = () => 204;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = request.url ?? '/';
      const secret = secrets.get(path);
      const expected = secret ? `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}` : '';
      const given = String(request.headers['x-fieldlink-signature'] ?? '');
      const signatureValid =
        secret !== undefined &&
        given.length === expected.length &&
        timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      const body = JSON.parse(raw.toString('utf8')) as ReceivedWebhook['body'];
      received.push({
        path,
        headers: request.headers,
        raw,
        body,
        signatureValid,
        receivedAt: performance.timeOrigin + performance.now(),
      });
      const status = answer({
        path,
        attempt: Number(request.headers['x-fieldlink-attempt'] ?? 1),
        eventId: String(request.headers['x-fieldlink-event-id'] ?? ''),
      });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? '' : `status ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    /** The receiver's URL for `path` (`/hook/a`). */
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** The secret deliveries to `path` are signed with. */
    expectSecret: (path: string, secret: string) => secrets.set(path, secret),
    /** What status each request gets from now on. */
    answerWith: (rule: typeof answer) => {
      answer = rule;
    },
    /** The requests of one event type to one path. */
    of: (path: string, type: string) => received.filter((entry) => entry.path === path && entry.body.type === type),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
