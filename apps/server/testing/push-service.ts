import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';

/** A push message as the test push service received, checked and decrypted it. */
export interface ReceivedPush {
  /** The subscription's name (the last part of its endpoint). */
  name: string;
  /** The decrypted payload, parsed. */
  payload: unknown;
  /** The VAPID public key the request was signed with (`k=`), base64url. */
  vapidKey: string;
  /** The verified VAPID JWT's claims. */
  claims: { aud: string; exp: number; sub: string };
  headers: { ttl: string | undefined; urgency: string | undefined; topic: string | undefined };
  /** `Date.now()` when the request arrived. */
  receivedAt: number;
}

/** A browser's side of a subscription: its keys, which only it (and this test) can decrypt with. */
export interface TestBrowser {
  name: string;
  endpoint: string;
  ecdh: ECDH;
  auth: Buffer;
  /** The body of `POST /push-subscriptions`. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
}

const b64 = (buffer: Buffer) => buffer.toString('base64url');

/**
 * A push service on loopback for the tests (issue 39 item 2): it refuses any request whose VAPID
 * signature (RFC 8292) does not verify against the key it carries, decrypts the `aes128gcm` payload
 * (RFC 8291 and RFC 8188) with the test browser's private key (written out here from the RFCs, not
 * with the sender's library), and answers each endpoint with the status the test sets (201 unless
 * told otherwise: 404 and 410 say the subscription is gone).
 */
export async function startTestPushService() {
  const received: ReceivedPush[] = [];
  const refused: { name: string; reason: string }[] = [];
  const browsers = new Map<string, TestBrowser>();
  const statuses = new Map<string, number>();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const name = (request.url ?? '').split('/').pop() ?? '';
      check(name, request, Buffer.concat(chunks)).then(
        (push) => {
          received.push(push);
          response.writeHead(statuses.get(name) ?? 201).end();
        },
        (error: unknown) => {
          refused.push({ name, reason: error instanceof Error ? error.message : String(error) });
          response.writeHead(400).end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function check(name: string, request: http.IncomingMessage, body: Buffer): Promise<ReceivedPush> {
    const browser = browsers.get(name);
    if (!browser) throw new Error(`unknown subscription ${name}`);
    if (request.method !== 'POST') throw new Error(`method ${request.method}`);
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      throw new Error(`content-encoding ${request.headers['content-encoding']}`);
    }
    // RFC 8292 §3: Authorization: vapid t=<JWT>, k=<public key>.
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(request.headers.authorization ?? '');
    if (!match) throw new Error(`authorization ${request.headers.authorization}`);
    const [, token, vapidKey] = match as unknown as [string, string, string];
    const raw = Buffer.from(vapidKey, 'base64url');
    if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
    const key = await importJWK(
      { kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33)) },
      'ES256',
    );
    const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: origin });
    const claims = payload as { aud: string; exp: number; sub: string };
    if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Error(`sub ${claims.sub}`);
    if (claims.exp * 1000 > Date.now() + 24 * 3600_000) throw new Error('exp more than 24 hours ahead');
    return {
      name,
      payload: JSON.parse(decrypt(body, browser).toString('utf8')) as unknown,
      vapidKey,
      claims,
      headers: {
        ttl: request.headers.ttl as string | undefined,
        urgency: request.headers.urgency as string | undefined,
        topic: request.headers.topic as string | undefined,
      },
      receivedAt: Date.now(),
    };
  }

  return {
    origin,
    received,
    refused,
    /** A new browser with its own keys, and its endpoint on this service. */
    browser(name: string): TestBrowser {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${name}`;
      const browser: TestBrowser = {
        name,
        endpoint,
        ecdh,
        auth,
        subscription: { endpoint, keys: { p256dh: b64(ecdh.getPublicKey()), auth: b64(auth) } },
      };
      browsers.set(name, browser);
      return browser;
    },
    /** Answers this subscription's messages with `status` from now on. */
    answer(name: string, status: number) {
      statuses.set(name, status);
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const hmac = (key: Buffer, ...data: Buffer[]) => {
  const mac = createHmac('sha256', key);
  for (const part of data) mac.update(part);
  return mac.digest();
};

/** RFC 8291 §3.4 and RFC 8188 §2: one record, as a push service's browser decrypts it. */
function decrypt(body: Buffer, browser: TestBrowser): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid of ${idLength} bytes`);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const sharedSecret = browser.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    browser.ecdh.getPublicKey(),
    serverKey,
    Buffer.from([1]),
  ]);
  const ikm = hmac(hmac(browser.auth, sharedSecret), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
