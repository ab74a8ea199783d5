import { describe, expect, it } from 'vitest';
import { BREW_ROUTES } from '@fieldlink/api/brew';
import { SESSION_ROUTES } from '@fieldlink/api/session';
import type { LocalCall } from '../../../lib/demo/demo-session';
import { DemoCallError } from './demo-call-error';
import { answerCall, answering, json } from './demo-calls';

const call = (query: LocalCall['query'], body: string | null = null): LocalCall => ({
  method: 'GET',
  path: '/test',
  query,
  body,
  network: () => Promise.reject(new Error('no server in a demo')),
});

const answered = async (response: Promise<Response>) => {
  const { status } = await response;
  return { status, body: (await (await response).json()) as unknown };
};

/** Echoes what the handler received (as a whole response: it is not the route's answer). */
const [, echoQuery] = answering(BREW_ROUTES.overview, ({ query }) => json(200, query));
const [, echoBody] = answering(BREW_ROUTES.putGravity, ({ body }) => json(200, body));
/** A call of a route that takes neither query nor body. */
const plain = (answer: () => Response) => answering(SESSION_ROUTES.self, answer)[1];

describe('a demo call checked by the schemas of the server’s route', () => {
  it('is named by its declared method and path', () => {
    expect(answering(BREW_ROUTES.putGravity, () => json(200, {}))[0]).toBe('PUT /brew/batch/gravity');
  });

  it.each([
    ['a query as sent, numbers from their text', { groupId: 'g1', tankNumber: '2' }, { groupId: 'g1', tankNumber: 2 }],
    ['an absent value left out', { groupId: 'g1', tankNumber: undefined }, { groupId: 'g1' }],
  ])('passes %s', async (_name, query, expected) => {
    expect(await answered(answerCall(echoQuery, call(query)))).toEqual({ status: 200, body: expected });
  });

  it('fills the defaults the schema declares, as the server’s validation does', async () => {
    const [, batches] = answering(BREW_ROUTES.batches, ({ query }) => json(200, query));
    expect((await answered(answerCall(batches, call({ groupId: 'g1' })))).body).toEqual({
      groupId: 'g1',
      isDemoMode: false,
    });
  });

  it.each([
    ['a missing field', { tankNumber: '1' }],
    ['a number out of range', { groupId: 'g1', tankNumber: '0' }],
    ['a value that is no number', { groupId: 'g1', tankNumber: 'two' }],
    ['a field the route does not take', { groupId: 'g1', extra: 'x' }],
  ])('refuses a query with %s as an invalid request (400)', async (_name, query) => {
    const { status, body } = await answered(answerCall(echoQuery, call(query)));
    expect(status).toBe(400);
    expect(body).toMatchObject({ invalidRequest: true, message: expect.stringMatching(/^querystring/) as string });
  });

  it('refuses a body the route’s schema refuses, and one that is not JSON', async () => {
    const wrong = await answered(answerCall(echoBody, call({}, JSON.stringify({ batchId: 'b1', value: 'high' }))));
    expect(wrong).toMatchObject({ status: 400, body: { invalidRequest: true } });
    expect(await answered(answerCall(echoBody, call({}, '{')))).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'The body is not JSON.' },
    });
    const right = await answered(answerCall(echoBody, call({}, JSON.stringify({ batchId: 'b1', value: 1.05 }))));
    expect(right).toEqual({ status: 200, body: { batchId: 'b1', value: 1.05 } });
  });

  it('answers a refusal with its status and words, and passes a whole response on', async () => {
    const refused = plain(() => {
      throw new DemoCallError(409, 'This batch has already ended.');
    });
    expect(await answered(answerCall(refused, call({})))).toEqual({
      status: 409,
      body: { statusCode: 409, error: 'Conflict', message: 'This batch has already ended.' },
    });
    const binary = plain(() => new Response('bytes', { status: 200, headers: { 'content-type': 'x/binary' } }));
    expect(await (await answerCall(binary, call({}))).text()).toBe('bytes');
  });

  it('lets any other failure through: a fault of the demo is not a refusal', async () => {
    const broken = plain(() => {
      throw new TypeError('bug');
    });
    await expect(answerCall(broken, call({}))).rejects.toThrow('bug');
  });
});
