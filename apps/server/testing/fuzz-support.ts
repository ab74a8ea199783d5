import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import fc from 'fast-check';
import type { Database } from '../src/db/schema';

/**
 * Shared by the property-based fuzz runs of the HTTP API and the real-time channel (SECURITY.md 14
 * and 18). `npm test` runs 1,000 inputs each (a few seconds); `npm run fuzz` sets
 * `FIELDLINK_FUZZ_INPUTS` to 100,000 (docs/decisions.md, Hardening), which the device-frame fuzz
 * (`ingest/fuzz.test.ts`) scales its own counts by.
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

/**
 * The value one time in `oneIn`, else null. (`fc.option`'s `freq` is the other way round: null one
 * time in `freq`. Used as "now and then", it sent a stray key with four calls in five and a broken
 * query string with nineteen in twenty, so few calls passed the schemas to reach a handler.)
 */
export function sometimes<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** Ordinary numbers a caller sends: small ones, and times in seconds and in milliseconds. */
const PLAIN_NUMBERS = [0, -1, 1, 100, 1_767_225_600, 1_767_225_600_000];

/**
 * Numbers at the edges of what storage holds: 32-bit and 64-bit integer columns (PostgreSQL refuses
 * past them where SQLite does not, and answered 500), the last safe integer, the last time a `Date`
 * holds, and the largest double. Any of them is an integer to a schema.
 */
const EDGE_NUMBERS = [
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  8_640_000_000_000_001,
  2 ** 63,
  -(2 ** 63) - 4096,
  2 ** 64,
  1e20,
  Number.MAX_VALUE,
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
  minimum?: number;
  maximum?: number;
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

/**
 * A value the field's schema accepts, as far as the fuzzer can tell: an enum's member, an id, a number
 * within the declared bounds. The other fields of a call take these while one field is attacked, so
 * that field's value gets past the schema to the handler and the storage behind it.
 */
export function plausibleFor(schema: FieldSchema | undefined, ids: readonly string[]): fc.Arbitrary<unknown> {
  if (schema === undefined) return fieldValue(ids);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices && choices.length > 0) return fc.oneof(...choices.map((choice) => plausibleFor(choice, ids)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'number' || type === 'integer') return inRange(schema, type);
  if (type === 'string') return fc.constantFrom(...ids);
  return valueFor(schema, ids);
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
        // Mostly a value the schema accepts, so a call's other fields get their turn at the handler.
        { weight: 4, arbitrary: inRange(schema, type) },
        { weight: 2, arbitrary: fc.integer() },
        { weight: 1, arbitrary: fc.double() },
        { weight: 2, arbitrary: fc.constantFrom(...PLAIN_NUMBERS) },
        { weight: 3, arbitrary: fc.constantFrom(...EDGE_NUMBERS) },
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

/** A number within the schema's declared bounds (safe integers for an integer). */
function inRange(schema: FieldSchema, type: 'number' | 'integer'): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -(2 ** 31), Number.MIN_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? min + 2 ** 32, Number.MAX_SAFE_INTEGER);
  if (type === 'integer') return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true });
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
  const stray = sometimes(fc.tuple(fc.string({ maxLength: 12 }), fieldValue(ids)), 6);
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
