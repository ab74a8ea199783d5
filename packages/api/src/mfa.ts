import { Type, type Static } from '@sinclair/typebox';

/**
 * A second-factor code as typed: a TOTP code or a recovery code (`@fieldlink/domain/mfa` reads it;
 * a malformed one is refused with a clear message rather than a schema path).
 */
export const SecondFactorCodeField = Type.String({ minLength: 1, maxLength: 64 });

/** `POST /user/mfa/totp`: a new secret, waiting for its first code; not on until confirmed. */
export const TotpEnrolmentAnswer = Type.Object({
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: Type.String(),
  /** The `otpauth://totp/…` URL the console shows as a QR code. */
  url: Type.String(),
});
export type TotpEnrolmentAnswer = Static<typeof TotpEnrolmentAnswer>;

/** `POST /user/mfa/totp/confirm` and `DELETE /user/mfa/totp`: a current code of the authenticator. */
export const TotpCodeBody = Type.Object({ code: SecondFactorCodeField }, { additionalProperties: false });
export type TotpCodeBody = Static<typeof TotpCodeBody>;

/**
 * The ten one-time recovery codes, answered once when TOTP is turned on; with a session token
 * (`jwt`) when it was turned on with an enrol-only token: the sign-in it held back completes.
 */
export const RecoveryCodesAnswer = Type.Object({
  recoveryCodes: Type.Array(Type.String()),
  jwt: Type.Optional(Type.String()),
});
export type RecoveryCodesAnswer = Static<typeof RecoveryCodesAnswer>;

/** `GET /user/mfa`: the caller's second factor. */
export const MfaStatusAnswer = Type.Object({
  totp: Type.Boolean(),
  /** Unused recovery codes left (0 while TOTP is off). */
  recoveryCodesLeft: Type.Integer({ minimum: 0 }),
  /** True when an account the caller belongs to requires a second factor: it cannot be turned off. */
  required: Type.Boolean(),
});
export type MfaStatusAnswer = Static<typeof MfaStatusAnswer>;

/** `GET /account/second-factor`: one account's sign-in requirement. */
export const AccountSecondFactorQuery = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type AccountSecondFactorQuery = Static<typeof AccountSecondFactorQuery>;

/** `PUT /account/second-factor`: require a second factor of the account's users and its customers'. */
export const AccountSecondFactorBody = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 64 }), required: Type.Boolean() },
  { additionalProperties: false },
);
export type AccountSecondFactorBody = Static<typeof AccountSecondFactorBody>;

export const AccountSecondFactorAnswer = Type.Object({
  accountId: Type.String(),
  /** The account's own setting. */
  required: Type.Boolean(),
  /** True when an account above it (its supplier) requires it: its users need one regardless. */
  requiredAbove: Type.Boolean(),
});
export type AccountSecondFactorAnswer = Static<typeof AccountSecondFactorAnswer>;
