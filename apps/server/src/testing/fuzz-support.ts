import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import fc from 'fast-check';
import type { Database } from '../db/schema';

/**
 * Shared by the property-based fuzz runs of the HTTP API and the real-time channel (SECURITY.md 14
 * and 18). `npm test` runs 1,000 inputs each (a few seconds); `npm run fuzz` sets
 * `FIELDLINK_FUZZ_INPUTS` to 100,000 (docs/decisions.md, Hardening).
 */
export const FUZZ_INPUTS = Number(process.env.FIELDLINK_FUZZ_INPUTS ?? 1000);
export const FUZZ_SEED = 12_2026;
/** Time for a run: 30 ms an input (an HTTP call on a machine at load 30 takes 10 to 30), and a minute to start. */
export const FUZZ_TIMEOUT_MS = 60_000 + FUZZ_INPUTS * 30;

/** Values that broke parsers, limits and queries elsewhere, beside random ones. */
const NASTY = [
  '',
  ' ',
  '0',
  '-1',
  '1e400',
  '-1e400',
  'NaN',
  'Infinity',
  '9'.repeat(40),
  '1767225600',
  '1767225600000',
  'null',
  'true',
  '[]',
  '{}',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '../../etc/passwd',
  '<img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '%',
  '_',
  '*',
  '#',
  '+/#',
  '__proto__',
  'constructor',
  './',
  '|scene:',
  'x'.repeat(5000),
];

/** A scalar a caller might send: one of `ids`, a nasty value, or a random one. */
function scalar(ids: readonly string[]): fc.Arbitrary<string | number | boolean | null> {
  return fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(...NASTY),
    fc.string({ maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );
}

/** Any JSON value a body field might hold: a scalar, a list, an object, or deeper random JSON. */
export function fieldValue(ids: readonly string[]): fc.Arbitrary<unknown> {
  const one = scalar(ids);
  return fc.oneof(
    { weight: 4, arbitrary: one },
    { weight: 1, arbitrary: fc.array(one, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), one, { maxKeys: 4 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** The part of a JSON schema (as the OpenAPI description gives it) the fuzzer follows. */
export interface FieldSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: FieldSchema[];
  oneOf?: FieldSchema[];
  items?: FieldSchema;
  properties?: Record<string, FieldSchema>;
  required?: string[];
}

/**
 * A value for a field of this schema: mostly of the declared type (an enum's members, ids and nasty
 * strings for strings, edge numbers for numbers, objects with the declared keys), now and then any
 * value at all, so both the checks and the handlers behind them are reached.
 */
export function valueFor(schema: FieldSchema | undefined, ids: readonly string[], depth = 0): fc.Arbitrary<unknown> {
  const wild = fieldValue(ids);
  if (schema === undefined || depth > 4) return wild;
  return fc.oneof({ weight: 15, arbitrary: typedValue(schema, ids, depth) }, { weight: 1, arbitrary: wild });
}

function typedValue(schema: FieldSchema, ids: readonly string[], depth: number): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices && choices.length > 0) return fc.oneof(...choices.map((choice) => valueFor(choice, ids, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...ids) },
        { weight: 1, arbitrary: fc.constantFrom(...NASTY) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      );
    case 'number':
    case 'integer':
      return fc.oneof(
        fc.integer(),
        fc.double(),
        fc.constantFrom(0, -1, 1, 100, 1_767_225_600, 1_767_225_600_000, Number.MAX_SAFE_INTEGER, -(2 ** 31)),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items, ids, depth + 1), { maxLength: 4 });
    case 'object':
      return objectFor(schema, ids, depth + 1);
    default:
      return fieldValue(ids);
  }
}

/** An object of this schema: its required keys nearly always, its other keys often, a stray key now and then. */
export function objectFor(
  schema: FieldSchema,
  ids: readonly string[],
  depth = 0,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const fields = Object.keys(properties).map((key) =>
    fc
      .tuple(fc.integer({ min: 0, max: 9 }), valueFor(properties[key], ids, depth))
      .map(([dice, value]) => ((required.has(key) ? dice > 0 : dice > 4) ? [[key, value] as const] : [])),
  );
  const stray = fc.option(fc.tuple(fc.string({ maxLength: 12 }), fieldValue(ids)), { freq: 6, nil: null });
  return fc
    .tuple(fc.tuple(...fields), stray)
    .map(([present, extra]) => Object.fromEntries([...present.flat(), ...(extra === null ? [] : [extra])]));
}

/** The rows of one account (its groups, devices, users, scenes, widgets, reports) as text, to show any change. */
export async function accountRows(db: Kysely<Database>, accountId: string): Promise<string> {
  const groups = await db.selectFrom('groups').selectAll().where('account_id', '=', accountId).execute();
  const groupIds = groups.map((group) => group.id);
  const rows = {
    account: await db.selectFrom('accounts').selectAll().where('id', '=', accountId).execute(),
    groups,
    devices: await db.selectFrom('devices').selectAll().where('account_id', '=', accountId).execute(),
    attachmentPoints: await db
      .selectFrom('attachment_points')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute(),
    scenes: await db.selectFrom('scenes').selectAll().where('group_id', 'in', groupIds).execute(),
    reports: await db.selectFrom('reports').selectAll().where('account_id', '=', accountId).execute(),
  };
  const sceneIds = rows.scenes.map((scene) => scene.id);
  const userIds = rows.attachmentPoints.map((point) => point.user_id);
  const widgets =
    sceneIds.length === 0 ? [] : await db.selectFrom('widgets').selectAll().where('scene_id', 'in', sceneIds).execute();
  const users =
    userIds.length === 0 ? [] : await db.selectFrom('users').selectAll().where('id', 'in', userIds).execute();
  return JSON.stringify({ ...rows, widgets, users }, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/** A session token of a user, issued as sign-in does but without its password hash (scrypt is slow). */
export async function tokenFor(app: FastifyInstance, email: string): Promise<string> {
  const user = await app.storage.db
    .selectFrom('users')
    .select(['id', 'token_version'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return app.tokens.issue(user.id, user.token_version);
}
