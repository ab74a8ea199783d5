import type { Static, TSchema } from '@sinclair/typebox';
import type { ApiRoute, RouteSchema } from '@fieldlink/api/routes';
import type { Capability } from '@fieldlink/domain/permissions';

type Part<S extends RouteSchema, K extends 'querystring' | 'body'> = S[K] extends TSchema ? Static<S[K]> : undefined;

/** A call's request as its answer reads it: the parts its route's schema has checked (and defaulted). */
export interface RouteInput<S extends RouteSchema = RouteSchema> {
  query: Part<S, 'querystring'>;
  body: Part<S, 'body'>;
}

/**
 * One call of a table shared by the server and the browser demo: its route (`@fieldlink/api`), what
 * the caller must be allowed (checked by a backend that has callers) and its answer over the shared
 * calls `C`. The server registers each at its route; the demo answers each at the same path.
 */
export interface RouteCall<C> {
  route: ApiRoute;
  capabilities(input: RouteInput): readonly Capability[];
  answer(calls: C, input: RouteInput): Promise<unknown>;
}

/**
 * The maker of a table's {@link RouteCall}s over the shared calls `C`: each call's input typed by its
 * route's schema.
 */
export const routeCallsOver =
  <C>() =>
  <S extends RouteSchema>(
    route: ApiRoute<S>,
    capabilities: readonly Capability[] | ((input: RouteInput<S>) => readonly Capability[]),
    answer: (calls: C, input: RouteInput<S>) => Promise<unknown>,
  ): RouteCall<C> => {
    const required = typeof capabilities === 'function' ? capabilities : () => capabilities;
    // The table holds calls of every schema; each is only ever given the input its route checked.
    return { route, capabilities: required as RouteCall<C>['capabilities'], answer: answer as RouteCall<C>['answer'] };
  };
