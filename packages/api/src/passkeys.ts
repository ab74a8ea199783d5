import { Type, type Static } from '@sinclair/typebox';
import { PASSKEY_SETTINGS } from '@fieldlink/domain/mfa';

/**
 * Passkeys (WebAuthn, issue 38 item 2): the options the server answers for a ceremony and the
 * credential the browser answers with, as `@simplewebauthn/browser` writes them (JSON, binary as
 * base64url). Credentials are not closed to other fields: browsers add extension outputs over time,
 * and only the fields named here are read. Every string is bounded.
 */

const Base64Url = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$' });

const Transport = Type.Union(
  ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'].map((name) => Type.Literal(name)),
);

const CredentialDescriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Type.Array(Transport)),
});

const UserVerification = Type.Union([Type.Literal('required'), Type.Literal('preferred'), Type.Literal('discouraged')]);

/** `POST /user/passkeys/options`: what the browser's `startRegistration` takes. */
export const PasskeyCreationOptions = Type.Object({
  challenge: Type.String(),
  rp: Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  pubKeyCredParams: Type.Array(Type.Object({ type: Type.Literal('public-key'), alg: Type.Integer() })),
  timeout: Type.Optional(Type.Integer()),
  excludeCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  authenticatorSelection: Type.Optional(
    Type.Object({
      authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
      requireResidentKey: Type.Optional(Type.Boolean()),
      residentKey: Type.Optional(
        Type.Union([Type.Literal('discouraged'), Type.Literal('preferred'), Type.Literal('required')]),
      ),
      userVerification: Type.Optional(UserVerification),
    }),
  ),
  attestation: Type.Optional(
    Type.Union([Type.Literal('direct'), Type.Literal('enterprise'), Type.Literal('indirect'), Type.Literal('none')]),
  ),
  extensions: Type.Optional(Type.Object({ credProps: Type.Optional(Type.Boolean()) })),
});
export type PasskeyCreationOptions = Static<typeof PasskeyCreationOptions>;

/**
 * `POST /signin/passkey/options`, and `passkeyOptions` of a sign-in that must prove a second factor:
 * what the browser's `startAuthentication` takes.
 */
export const PasskeyRequestOptions = Type.Object({
  challenge: Type.String(),
  rpId: Type.Optional(Type.String()),
  timeout: Type.Optional(Type.Integer()),
  allowCredentials: Type.Optional(Type.Array(CredentialDescriptor)),
  userVerification: Type.Optional(UserVerification),
});
export type PasskeyRequestOptions = Static<typeof PasskeyRequestOptions>;

const CredentialFields = {
  id: Base64Url(1400),
  rawId: Base64Url(1400),
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
  clientExtensionResults: Type.Object({}),
};

/** What `startRegistration` answers: a new credential and its attestation. */
export const PasskeyRegistrationCredential = Type.Object({
  ...CredentialFields,
  response: Type.Object({
    clientDataJSON: Base64Url(4096),
    attestationObject: Base64Url(65_536),
    authenticatorData: Type.Optional(Base64Url(65_536)),
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
    // A COSE algorithm identifier (a signed integer; the registered ones lie within 16 bits).
    publicKeyAlgorithm: Type.Optional(Type.Integer({ minimum: -2_147_483_648, maximum: 2_147_483_647 })),
    publicKey: Type.Optional(Base64Url(4096)),
  }),
});
export type PasskeyRegistrationCredential = Static<typeof PasskeyRegistrationCredential>;

/** What `startAuthentication` answers: a signature over the challenge. */
export const PasskeyAuthenticationCredential = Type.Object({
  ...CredentialFields,
  response: Type.Object({
    clientDataJSON: Base64Url(4096),
    authenticatorData: Base64Url(4096),
    signature: Base64Url(4096),
    userHandle: Type.Optional(Base64Url(256)),
  }),
});
export type PasskeyAuthenticationCredential = Static<typeof PasskeyAuthenticationCredential>;

/** `POST /user/passkeys`: the new passkey and the name its owner gives it. */
export const PasskeyAddBody = Type.Object(
  {
    name: Type.String({ maxLength: PASSKEY_SETTINGS.nameMaxLength * 4 }),
    credential: PasskeyRegistrationCredential,
  },
  { additionalProperties: false },
);
export type PasskeyAddBody = Static<typeof PasskeyAddBody>;

/** One of the caller's passkeys, as the security page lists it. */
export const PasskeyEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Type.Integer(),
  lastUsedAt: Type.Union([Type.Integer(), Type.Null()]),
  /** Where it lives, as the browser said (`internal`: this device; `hybrid`: a phone; `usb`: a key). */
  transports: Type.Array(Type.String()),
});
export type PasskeyEntry = Static<typeof PasskeyEntry>;

/**
 * `POST /user/passkeys`: the passkey added; with a session token (`jwt`) when added with an enrol-only
 * token: the sign-in it held back completes.
 */
export const PasskeyAddAnswer = Type.Object({ passkey: PasskeyEntry, jwt: Type.Optional(Type.String()) });
export type PasskeyAddAnswer = Static<typeof PasskeyAddAnswer>;

/** `GET /user/passkeys`: the caller's passkeys, newest first. */
export const PasskeyListAnswer = Type.Object({ passkeys: Type.Array(PasskeyEntry) });
export type PasskeyListAnswer = Static<typeof PasskeyListAnswer>;

/** `DELETE /user/passkeys?id=`. */
export const PasskeyDeleteQuery = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 1400 }) },
  { additionalProperties: false },
);
export type PasskeyDeleteQuery = Static<typeof PasskeyDeleteQuery>;

/** `POST /signin/passkey`: a sign-in without a password. */
export const PasskeySigninBody = Type.Object(
  { credential: PasskeyAuthenticationCredential },
  { additionalProperties: false },
);
export type PasskeySigninBody = Static<typeof PasskeySigninBody>;
