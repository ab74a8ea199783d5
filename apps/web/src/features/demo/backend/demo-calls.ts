import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { errorBody } from '@fieldlink/api/errors';
import type { LocalCall } from '../../../lib/demo/demo-session';
import { DemoCallError } from './demo-call-error';

/** A call as its handler gets it: query and body passed by the server's own schemas (`@fieldlink/api`). */
export interface CheckedCall<Query = unknown, Body = unknown> {
  query: Query;
  body: Body;
  now: number;
  call: LocalCall;
}

/** One call the browser answers: the schemas the server's route declares, and its handler. */
export interface DemoCall {
  query?: TSchema;
  body?: TSchema;
  // The handler's own types come from `withQuery` / `withBody`; the table holds any of them.
  answer(call: CheckedCall<never, never>): unknown;
}

/** Answers by path (`METHOD /path`). */
export type DemoCalls = Record<string, DemoCall>;

export const json = (status: number, body: unknown) =>
  new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** A call with a querystring, checked by the server route's schema. */
export const withQuery = <Q extends TSchema>(
  query: Q,
  answer: (call: CheckedCall<Static<Q>>) => unknown,
): DemoCall => ({
  query,
  answer: answer as DemoCall['answer'],
});

/** A call with a JSON body, checked by the server route's schema. */
export const withBody = <B extends TSchema>(
  body: B,
  answer: (call: CheckedCall<unknown, Static<B>>) => unknown,
): DemoCall => ({ body, answer: answer as DemoCall['answer'] });

/** A call that takes nothing. */
export const plain = (answer: (call: CheckedCall) => unknown): DemoCall => ({ answer: answer as DemoCall['answer'] });

/**
 * A request part as the server's validation leaves it (Fastify's Ajv: `useDefaults`, `coerceTypes`),
 * or the 400 it answers (`invalidRequest`, so the console words it as it words the server's).
 */
function checked(part: 'querystring' | 'body', schema: TSchema | undefined, value: unknown): unknown {
  if (!schema) return value;
  const converted = Value.Convert(schema, Value.Default(schema, Value.Clone(value)));
  const error = Value.Errors(schema, converted).First();
  if (error) throw new DemoCallError(400, `${part}${error.path} ${error.message}`, true);
  return converted;
}

/** The answer of `route` to `call`: a value sent as JSON, a whole response, or a refusal as the server words it. */
export async function answerCall(route: DemoCall, call: LocalCall): Promise<Response> {
  try {
    let body: unknown = {};
    try {
      body = call.body ? JSON.parse(call.body) : {};
    } catch {
      throw new DemoCallError(400, 'The body is not JSON.');
    }
    // Absent values never reach the server's query string.
    const query = Object.fromEntries(Object.entries(call.query).filter(([, value]) => value !== undefined));
    const answer = await route.answer({
      query: checked('querystring', route.query, query) as never,
      body: checked('body', route.body, body) as never,
      now: Date.now(),
      call,
    });
    return answer instanceof Response ? answer : json(200, answer);
  } catch (error) {
    if (!(error instanceof DemoCallError)) throw error;
    const body = errorBody(error.status, error.message);
    return json(error.status, error.invalidRequest ? { ...body, invalidRequest: true } : body);
  }
}
