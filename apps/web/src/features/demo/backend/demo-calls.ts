import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { errorBody } from '@fieldlink/api/errors';
import { routeKey, type ApiRoute, type RouteSchema } from '@fieldlink/api/routes';
import type { RouteInput } from '@fieldlink/services/route-calls';
import type { LocalCall } from '../../../lib/demo/demo-session';
import { DemoCallError } from './demo-call-error';

/** A call as its handler gets it: query and body passed by its route's schemas (`@fieldlink/api`). */
export interface CheckedCall<S extends RouteSchema = RouteSchema> extends RouteInput<S> {
  now: number;
  call: LocalCall;
}

/** One call the browser answers: the route the server declares too, and its handler. */
export interface DemoCall {
  route: ApiRoute;
  answer(call: CheckedCall): unknown;
}

/** Answers by path (`METHOD /path`). */
export type DemoCalls = Record<string, DemoCall>;

export const json = (status: number, body: unknown) =>
  new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** What a route answers on success, by its schema's 200. */
type Answer<S extends RouteSchema> = S['response'][200] extends TSchema ? Static<S['response'][200]> : never;

/**
 * The demo's answer to a declared route, as an entry of its table (under `METHOD /path`): the shape
 * the route's 200 declares, as the server answers it, or a whole response (another format).
 */
export const answering = <S extends RouteSchema>(
  route: ApiRoute<S>,
  answer: (call: CheckedCall<S>) => Answer<S> | Response | Promise<Answer<S> | Response>,
): [string, DemoCall] =>
  // The table holds calls of every schema; each is only ever given the input its route checked.
  [routeKey(route), { route, answer: answer as DemoCall['answer'] }];

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
export async function answerCall({ route, answer }: DemoCall, call: LocalCall): Promise<Response> {
  try {
    let body: unknown = {};
    try {
      body = call.body ? JSON.parse(call.body) : {};
    } catch {
      throw new DemoCallError(400, 'The body is not JSON.');
    }
    // Absent values never reach the server's query string.
    const query = Object.fromEntries(Object.entries(call.query).filter(([, value]) => value !== undefined));
    const answered = await answer({
      query: checked('querystring', route.schema.querystring, query) as never,
      body: checked('body', route.schema.body, body) as never,
      now: Date.now(),
      call,
    });
    return answered instanceof Response ? answered : json(200, answered);
  } catch (error) {
    if (!(error instanceof DemoCallError)) throw error;
    const body = errorBody(error.status, error.message);
    return json(error.status, error.invalidRequest ? { ...body, invalidRequest: true } : body);
  }
}
