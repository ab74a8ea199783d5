import { Type, type TSchema } from '@sinclair/typebox';

/** Field schemas many calls share, declared once so a limit or pattern changes in one place. */

/** The schema, or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The id of a stored entity (device, group, scene, alarm, account) in a request. */
export const EntityId = Type.String({ minLength: 1, maxLength: 64 });

/** A channel code (`c1`, `sp-2`, `do4`) in a request. */
export const ChannelCode = Type.String({ pattern: '^[a-z]{1,4}-?[0-9]{1,3}$' });

/** An e-mail address as a person types it (surrounding white space is trimmed later). */
export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' });
