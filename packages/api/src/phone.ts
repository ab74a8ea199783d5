import { Type, type Static } from '@sinclair/typebox';
import { PHONE_CODE_LIMITS, PHONE_PATTERN } from '@fieldlink/domain/sms';

/** The caller's phone for SMS alerts (issue 39 item 4): offered only where the server has SMS. */

/** `PUT /user/phone`: the number to verify, in E.164 (`+447700900123`); a code goes to it by SMS. */
export const PhoneBody = Type.Object(
  { phone: Type.String({ pattern: PHONE_PATTERN, maxLength: 16 }) },
  { additionalProperties: false },
);
export type PhoneBody = Static<typeof PhoneBody>;

/** `POST /user/phone/verify`: the code the SMS carried. */
export const PhoneCodeBody = Type.Object(
  { code: Type.String({ pattern: `^[0-9]{${PHONE_CODE_LIMITS.digits}}$` }) },
  { additionalProperties: false },
);
export type PhoneCodeBody = Static<typeof PhoneCodeBody>;

/** The caller's phone: the verified number alerts go to, and a number waiting for its code. */
export const PhoneAnswer = Type.Object({
  /** The verified number SMS alerts go to, or null. */
  phone: Type.Union([Type.String(), Type.Null()]),
  verifiedAt: Type.Union([Type.Number(), Type.Null()]),
  /** A number a code was sent to and not yet entered, with when that code expires; else null. */
  pending: Type.Union([Type.Object({ phone: Type.String(), expiresAt: Type.Number() }), Type.Null()]),
});
export type PhoneAnswer = Static<typeof PhoneAnswer>;
