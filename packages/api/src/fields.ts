import { Type, type IntegerOptions, type TInteger, type TSchema } from '@sinclair/typebox';
import { REGISTER_NUMBER_RANGE, REGISTER_VALUE_RANGE } from '@fieldlink/domain/int16';

/** Field schemas many calls share, declared once so a limit or pattern changes in one place. */

/** The schema, or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The id of a stored entity (device, group, scene, alarm, account) in a request. */
export const EntityId = Type.String({ minLength: 1, maxLength: 64 });

/** A channel code (`c1`, `sp-2`, `do4`) in a request. */
export const ChannelCode = Type.String({ pattern: '^[a-z]{1,4}-?[0-9]{1,3}$' });

/** A register number (core §9). */
export const RegisterNumber = Type.Integer({ minimum: REGISTER_NUMBER_RANGE.min, maximum: REGISTER_NUMBER_RANGE.max });

/** A value written to a register: a 16-bit value, signed or unsigned (core §9). */
export const RegisterValue = Type.Integer({ minimum: REGISTER_VALUE_RANGE.min, maximum: REGISTER_VALUE_RANGE.max });

/** An e-mail address as a person types it (surrounding white space is trimmed later). */
export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' });

/**
 * The latest time a caller may send, unix milliseconds: the last instant a JavaScript `Date` can hold
 * (13 September 275760). Nothing later is a time, and PostgreSQL's `bigint` columns end at 2^63 - 1, so
 * a larger number answered 500 there; the schemas refuse it with 400 on every storage.
 */
export const MAX_TIME_MS = 8_640_000_000_000_000;

/** Marks a schema as a caller's timestamp; the server turns what it holds into unix milliseconds. */
export const TIMESTAMP = Symbol.for('fieldlink.timestamp');

/**
 * A timestamp field's schema. Named so that the declarations of the schemas using it can refer to it:
 * a file that does not import `TIMESTAMP` cannot name its key (TS4023 under `tsc -b`).
 */
export type TimestampSchema = TInteger & { [TIMESTAMP]: true };

/**
 * A time a caller sends (query or body): unix milliseconds, or unix seconds when it has 12 digits or
 * fewer (specification core §4's rule, `toMillis` of `packages/domain/src/timestamps.ts`). The server
 * applies the rule to every field of this schema before any handler, so handlers see milliseconds.
 */
export function Timestamp(options: IntegerOptions = {}): TimestampSchema {
  return Object.assign(
    Type.Integer({
      minimum: 0,
      maximum: MAX_TIME_MS,
      description: 'unix milliseconds (12 digits or fewer: unix seconds)',
      ...options,
    }),
    { [TIMESTAMP]: true as const },
  );
}
