import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientAction } from '@fieldlink/api/realtime';
import { routeTable } from './route-table';
import {
  FUZZ_INPUTS,
  FUZZ_SEED,
  FUZZ_TIMEOUT_MS,
  accountRows,
  fieldValue,
  objectFor,
  plausibleFor,
  sometimes,
  tokenFor,
  valueFor,
  type FieldSchema,
} from './fuzz-support';
import { DIALECTS, startTestApp, type TestApp } from './test-app';

/**
 * Every route of the HTTP API (read from the server's own route table) called with random and nearly
 * valid queries and bodies, as nobody, as a VIEW_DASH viewer, as an operator and as the supplier's
 * administrator (SECURITY.md 14 and 18): no call may answer 5xx, every refusal says why in a JSON
 * `message`, and another account's data stays exactly as it was. The keys come from the API's own
 * OpenAPI description, so the values reach the handlers rather than stopping at the first missing
 * field; the ids are the fuzzing account's own. On both dialects: a NUL character, harmless to SQLite,
 * answered 500 on PostgreSQL until the input guard refused it.
 */

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema?: FieldSchema }[];
  requestBody?: { content?: Record<string, { schema?: FieldSchema }> };
}
type OpenApi = { paths: Record<string, Record<string, OpenApiOperation>> };

/** The query parameters and body schema the API description gives a route. */
function contract(spec: OpenApi, route: string): { query: OpenApiOperation['parameters']; body: FieldSchema } {
  const [method, path] = route.split(' ') as [string, string];
  const operation = spec.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  return {
    query: (operation?.parameters ?? []).filter((parameter) => parameter.in === 'query'),
    body: operation?.requestBody?.content?.['application/json']?.schema ?? {},
  };
}

/** A query string value as a browser sends it: text, or a repeated key for a list. */
function asQueryText(value: unknown): string | string[] {
  const text = (item: unknown) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  return Array.isArray(value) ? value.map(text) : text(value);
}

describe.each(DIALECTS)('fuzzing every route of the HTTP API on %s', (dialect) => {
  let t: TestApp;
  let ids: string[];
  let otherAccountId: string;
  let callers: Record<'viewer' | 'ops' | 'admin', { id: string; tokenVersion: number }>;
  let witnessToken: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const db = t.app.storage.db;
    const acme = await db
      .selectFrom('accounts')
      .selectAll()
      .where('name', '=', 'Acme Controls')
      .executeTakeFirstOrThrow();
    otherAccountId = (
      await db.selectFrom('accounts').select('id').where('name', '=', 'Filtec Water').executeTakeFirstOrThrow()
    ).id;
    const groups = await db.selectFrom('groups').select(['id', 'path']).where('account_id', '=', acme.id).execute();
    const devices = await db
      .selectFrom('devices')
      .select(['id', 'thing_name'])
      .where('account_id', '=', acme.id)
      .execute();
    const scenes = await db
      .selectFrom('scenes')
      .select('id')
      .where(
        'group_id',
        'in',
        groups.map((group) => group.id),
      )
      .execute();
    const users = await db
      .selectFrom('users')
      .innerJoin('attachment_points', 'attachment_points.user_id', 'users.id')
      .select(['users.id', 'users.email', 'users.token_version'])
      .where('attachment_points.account_id', '=', acme.id)
      .execute();
    ids = [
      acme.id,
      ...groups.flatMap((group) => [group.id, group.path]),
      ...devices.flatMap((device) => [device.id, device.thing_name]),
      ...scenes.map((scene) => scene.id),
      ...users.map((user) => user.email),
      'c1',
      'sp1',
      'do1',
    ];
    const caller = (email: string) => {
      const user = users.find((candidate) => candidate.email === email);
      if (user) return { id: user.id, tokenVersion: user.token_version };
      throw new Error(`No user ${email}`);
    };
    const admin = await db
      .selectFrom('users')
      .select(['id', 'token_version'])
      .where('email', '=', 'admin@fieldlink.test')
      .executeTakeFirstOrThrow();
    callers = {
      viewer: caller('viewer@fieldlink.test'),
      ops: caller('ops@fieldlink.test'),
      admin: { id: admin.id, tokenVersion: admin.token_version },
    };
    witnessToken = await tokenFor(t.app, 'water@fieldlink.test');
    // Seeding hashes the demo users' passwords: slow on a loaded machine, and on PostgreSQL slower.
  }, 120_000);
  afterAll(async () => t?.close());

  it('bounds every integer a call or a real-time action takes within what storage holds', () => {
    // A number past a bigint column (2^63) answered 500 on PostgreSQL and was stored or compared on
    // SQLite; every integer is checked against its range by the schema instead (400). Past the safe
    // integers a double cannot even tell neighbours apart.
    const spec = t.app.swagger() as unknown as OpenApi;
    const unbounded: string[] = [];
    let integers = 0;
    const walk = (schema: FieldSchema | undefined, where: string): void => {
      if (!schema) return;
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      const bounded = (bound: number | undefined) => bound !== undefined && Math.abs(bound) <= Number.MAX_SAFE_INTEGER;
      if (types.includes('integer')) {
        integers += 1;
        if (!(bounded(schema.minimum) && bounded(schema.maximum))) unbounded.push(where);
      }
      for (const choice of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(choice, where);
      walk(schema.items, `${where}[]`);
      for (const [key, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${key}`);
      const { additionalProperties: rest, patternProperties } = schema as {
        additionalProperties?: FieldSchema | boolean;
        patternProperties?: Record<string, FieldSchema>;
      };
      if (typeof rest === 'object') walk(rest, `${where}.*`);
      for (const property of Object.values(patternProperties ?? {})) walk(property, `${where}.*`);
    };
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          walk(parameter.schema, `${method.toUpperCase()} ${path} ${parameter.name}`);
        }
        walk(operation.requestBody?.content?.['application/json']?.schema, `${method.toUpperCase()} ${path} body`);
      }
    }
    walk(ClientAction as FieldSchema, 'real-time action');
    expect(integers).toBeGreaterThan(30);
    expect(unbounded).toEqual([]);
  });

  it(
    `answers ${FUZZ_INPUTS.toLocaleString('en')} random and nearly valid calls on every route without a 5xx, and another account's data is kept`,
    async () => {
      const routes = routeTable(t.app).filter(
        (route) => /^(GET|POST|PUT|DELETE) \/api\/v1\//.test(route) && !/\/docs|\/realtime$/.test(route),
      );
      expect(routes.length).toBeGreaterThan(60);
      const spec = t.app.swagger() as unknown as OpenApi;
      const pathSegment = fc.oneof(fc.constantFrom(...ids), fc.string({ maxLength: 30 }));
      const callOf = (
        route: string,
        body: FieldSchema,
        parameters: NonNullable<OpenApiOperation['parameters']>,
        focus: number,
      ) => {
        const declared = parameters.map((parameter, index) =>
          fc.option(
            (index === focus ? valueFor : plausibleFor)(parameter.schema, ids).map(
              (value) => [parameter.name, asQueryText(value)] as const,
            ),
            { freq: 3, nil: null },
          ),
        );
        const stray = sometimes(fc.tuple(fc.string({ maxLength: 12 }), fieldValue(ids).map(asQueryText)), 5);
        return fc.record({
          route: fc.constant(route),
          segment: pathSegment,
          query: fc
            .tuple(fc.tuple(...declared), stray)
            .map(([pairs, extra]) => Object.fromEntries([...pairs, extra].filter((pair) => pair !== null))),
          rawQuery: sometimes(fc.constantFrom('%', '%E0%A4%A', '&&==', 'a[b][c]=1', 'limit=1&limit=2'), 20),
          body: fc.oneof(
            { weight: 8, arbitrary: objectFor(body, ids).map((object) => JSON.stringify(object)) },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((json) => JSON.stringify(json) ?? '') },
            { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
            { weight: 1, arbitrary: fc.constantFrom('{', '{"id":', '['.repeat(200), '{"__proto__":{"isAdmin":true}}') },
          ),
          contentType: fc.oneof(
            { weight: 8, arbitrary: fc.constant('application/json') },
            { weight: 1, arbitrary: fc.constantFrom('text/plain', '') },
          ),
          caller: fc.constantFrom('nobody', 'viewer', 'ops', 'admin', 'admin'),
        });
      };
      // One query parameter at a time is attacked (or none), the others plausible, so the attacked
      // value reaches the handler: a `before` of 2^63 answered 500 on PostgreSQL behind a bad `limit`.
      const call = fc.constantFrom(...routes).chain((route) => {
        const { query, body } = contract(spec, route);
        const parameters = query ?? [];
        const attacked = fc.nat({ max: parameters.length });
        return attacked.chain((focus) => callOf(route, body, parameters, focus));
      });

      const witnessBefore = await t.app.inject({
        method: 'GET',
        url: '/api/v1/self',
        headers: { authorization: witnessToken },
      });
      const kept = await accountRows(t.app.storage.db, otherAccountId);
      let calls = 0;
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.array(call, { minLength: 50, maxLength: 50 }), async (batch) => {
          // Fresh tokens for every batch: a fuzzed POST /signout revokes only its own.
          const tokens = Object.fromEntries(
            await Promise.all(
              Object.entries(callers).map(
                async ([name, user]) => [name, await t.app.tokens.issue(user.id, user.tokenVersion)] as const,
              ),
            ),
          ) as Record<string, string>;
          for (const input of batch) {
            const [method, path] = input.route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
            const url = path.replace(/:\w+|\*/g, encodeURIComponent(input.segment));
            const response = await t.app.inject({
              method,
              url: input.rawQuery === null ? url : `${url}?${input.rawQuery}`,
              query: input.rawQuery === null ? input.query : undefined,
              headers: {
                ...(input.contentType ? { 'content-type': input.contentType } : {}),
                ...(input.caller === 'nobody' ? {} : { authorization: tokens[input.caller]! }),
              },
              payload: method === 'GET' ? undefined : input.body,
            });
            calls += 1;
            const refusalWithoutReason =
              response.statusCode >= 400 &&
              typeof (JSON.parse(response.body || '{}') as { message?: unknown }).message !== 'string';
            if (response.statusCode >= 500 || refusalWithoutReason) {
              failures.push(`${input.route} as ${input.caller}: ${response.statusCode} ${response.body.slice(0, 300)}`);
              return false;
            }
          }
          return true;
        }),
        { numRuns: Math.ceil(FUZZ_INPUTS / 50), seed: FUZZ_SEED, endOnFailure: true },
      );
      expect(failures).toEqual([]);
      expect(calls).toBe(Math.ceil(FUZZ_INPUTS / 50) * 50);
      // Good data kept: the other account's rows, and what its user reads, are as they were.
      expect(await accountRows(t.app.storage.db, otherAccountId)).toBe(kept);
      const witnessAfter = await t.app.inject({
        method: 'GET',
        url: '/api/v1/self',
        headers: { authorization: witnessToken },
      });
      expect(witnessAfter.statusCode).toBe(200);
      expect(witnessAfter.json()).toEqual(witnessBefore.json());
    },
    FUZZ_TIMEOUT_MS,
  );
});
