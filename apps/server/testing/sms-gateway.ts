import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message the gateway took, as a Twilio-compatible Messages API reads it. */
export interface ReceivedSms {
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  /** The answer it got. */
  status: number;
  /** `performance.timeOrigin + performance.now()` when it arrived. */
  receivedAt: number;
}

/** What the gateway answers one well-formed, authenticated request. */
export interface GatewayAnswer {
  status: number;
  retryAfter?: string;
}

/**
 * A Twilio-compatible SMS gateway as the tests need one: a real HTTP server on loopback that takes
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with HTTP Basic auth (the account SID and its
 * token) and a form-encoded body (`To`, `From` or `MessagingServiceSid`, `Body`), refuses anything
 * else as Twilio does (401 with code 20003, 400 with code 21211 or 21602), and answers 201 with the
 * message's `sid` and `status`, or what the test asks.
 */
export async function startSmsGateway() {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const from = '+15550001111';
  /** Messages taken (well-formed and authenticated), whatever they were answered. */
  const received: ReceivedSms[] = [];
  /** Requests refused before they were read as messages, with why. */
  const refused: string[] = [];
  let answer: (sms: Omit<ReceivedSms, 'status' | 'receivedAt'>, attempt: number) => GatewayAnswer = () => ({
    status: 201,
  });
  const json = (response: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
      if (request.method !== 'POST' || request.url !== path) {
        refused.push(`${request.method} ${request.url}`);
        return json(response, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      }
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        refused.push(`authorization ${request.headers.authorization}`);
        return json(response, 401, { code: 20003, message: 'Authenticate', status: 401 });
      }
      if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        refused.push(`content-type ${request.headers['content-type']}`);
        return json(response, 415, { code: 20415, message: 'Unsupported media type', status: 415 });
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const unknown = [...form.keys()].filter((key) => !['To', 'From', 'MessagingServiceSid', 'Body'].includes(key));
      const to = form.get('To') ?? '';
      const body = form.get('Body') ?? '';
      if (unknown.length > 0 || !/^\+[1-9]\d{7,14}$/.test(to) || !body) {
        refused.push(`form ${form.toString()}`);
        return json(response, 400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          status: 400,
        });
      }
      if (!form.get('From') === !form.get('MessagingServiceSid')) {
        refused.push(`sender ${form.toString()}`);
        return json(response, 400, { code: 21602, message: 'A From or MessagingServiceSid is required.', status: 400 });
      }
      const sms = { to, from: form.get('From'), messagingServiceSid: form.get('MessagingServiceSid'), body };
      const attempt = received.filter((other) => other.to === to && other.body === body).length + 1;
      const given = answer(sms, attempt);
      received.push({ ...sms, status: given.status, receivedAt: performance.timeOrigin + performance.now() });
      const headers: Record<string, string> = given.retryAfter ? { 'retry-after': given.retryAfter } : {};
      if (given.status !== 201) {
        return json(
          response,
          given.status,
          { code: 20500, message: `Answered ${given.status} by the test`, status: given.status },
          headers,
        );
      }
      // The shape of Twilio's answer, whose `sid` comes late in about a kilobyte.
      json(response, 201, {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body,
        date_created: new Date().toUTCString(),
        date_sent: null,
        date_updated: new Date().toUTCString(),
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: sms.from,
        messaging_service_sid: sms.messagingServiceSid,
        num_media: '0',
        num_segments: '1',
        price: null,
        price_unit: 'USD',
        sid: `SM${randomBytes(16).toString('hex')}`,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/SM/Media.json` },
        to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/SM.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    refused,
    accountSid,
    authToken,
    from,
    /** `SMS_URL` with everything in it. */
    url: `http://${accountSid}:${authToken}@127.0.0.1:${port}?from=${encodeURIComponent(from)}`,
    /** The base URL alone, for the `SMS_*` settings. */
    baseUrl: `http://127.0.0.1:${port}`,
    /** Messages to one number. */
    to: (phone: string) => received.filter((sms) => sms.to === phone),
    /** What each message gets from now on (`attempt`: how often this text went to this number, this one included). */
    answerWith: (rule: typeof answer) => {
      answer = rule;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type SmsGateway = Awaited<ReturnType<typeof startSmsGateway>>;
