import { Type, type Static } from '@sinclair/typebox';
import { PERMISSIONS, EXTRA_FLAGS } from '@fieldlink/domain/permissions';
import { Email } from './fields';
import { SecondFactorCodeField } from './mfa';
import { PasskeyAuthenticationCredential } from './passkeys';
import { errorAnswers, ErrorAnswer, OkAnswer } from './errors';
import { SELF_PATH } from './first-calls';
import { apiRoute } from './routes';

export { TOKEN_STORAGE_KEY } from './first-calls';

const Password = Type.String({ minLength: 1, maxLength: 1024 });
/** Shortest password a user may choose. */
export const NEW_PASSWORD_MIN_LENGTH = 10;
/** New passwords: at least 10 characters (ASVS 2.1.1 asks 12 for user-chosen; 10 with the breach-list-free setting here). */
export const NewPassword = Type.String({ minLength: NEW_PASSWORD_MIN_LENGTH, maxLength: 1024 });

export const PermissionName = Type.Union(PERMISSIONS.map((p) => Type.Literal(p)));
export const ExtraFlagName = Type.Union(EXTRA_FLAGS.map((p) => Type.Literal(p)));

export const SigninBody = Type.Object(
  {
    email: Email,
    password: Password,
    /** A current TOTP code or an unused recovery code, for a user with a second factor (issue 38). */
    code: Type.Optional(SecondFactorCodeField),
    /** A passkey's answer to the `passkeyOptions` of the sign-in's `mfaRequired` 401, instead of a code. */
    passkey: Type.Optional(PasskeyAuthenticationCredential),
  },
  { additionalProperties: false },
);
export type SigninBody = Static<typeof SigninBody>;
export const JwtAnswer = Type.Object({ jwt: Type.String() });
export type JwtAnswer = Static<typeof JwtAnswer>;

export const AttachmentPoint = Type.Object({
  path: Type.String(),
  permissions: Type.Array(PermissionName),
  secretPermissions: Type.Array(ExtraFlagName),
  appType: Type.String(),
});
export type AttachmentPoint = Static<typeof AttachmentPoint>;

export const LinkedAccount = Type.Object({ accountId: Type.String(), attachmentPoints: Type.Array(AttachmentPoint) });
export type LinkedAccount = Static<typeof LinkedAccount>;

export const SelfAnswer = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  theme: Type.Union([Type.String(), Type.Null()]),
  linkedAccounts: Type.Array(LinkedAccount),
  /** Sees every value and chart but operates nothing (issue 35). */
  monitorOnly: Type.Boolean(),
  /** The user's clock (issue 36 item 2); each null: the browser's zone and locale. */
  timeZone: Type.Union([Type.String(), Type.Null()]),
  hourCycle: Type.Union([Type.Literal('12'), Type.Literal('24'), Type.Null()]),
  dateOrder: Type.Union([Type.Literal('dmy'), Type.Literal('mdy'), Type.Null()]),
});
export type SelfAnswer = Static<typeof SelfAnswer>;

/** Sign-up from an invitation (`POST /user`). The invitation code comes from the mailed link. */
export const SignupBody = Type.Object(
  {
    email: Email,
    password: NewPassword,
    firstName: Type.String({ minLength: 1, maxLength: 100 }),
    lastName: Type.String({ minLength: 1, maxLength: 100 }),
    code: Type.String({ minLength: 16, maxLength: 128 }),
  },
  { additionalProperties: false },
);
export type SignupBody = Static<typeof SignupBody>;

/** `POST /user/password`: set a new password with the mailed reset code. */
export const PasswordResetBody = Type.Object(
  { email: Email, code: Type.String({ minLength: 16, maxLength: 128 }), password: NewPassword },
  { additionalProperties: false },
);
export type PasswordResetBody = Static<typeof PasswordResetBody>;

export const EmailResetCodeBody = Type.Object(
  {
    email: Email,
    subdomain: Type.Optional(Type.String({ maxLength: 63 })),
    isLinkReset: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type EmailResetCodeBody = Static<typeof EmailResetCodeBody>;

export const EventLogBody = Type.Object(
  { error: Type.String({ maxLength: 10_000 }), errorInfo: Type.Optional(Type.Unknown()) },
  { additionalProperties: false },
);
export type EventLogBody = Static<typeof EventLogBody>;

/** Public configuration loaded by the browser at start-up (no sign-in needed). */
export const ClientConfig = Type.Object({
  productName: Type.String(),
  clientVersion: Type.String(),
  defaultTheme: Type.String(),
  mapTileUrl: Type.Union([Type.String(), Type.Null()]),
  mapKey: Type.Union([Type.String(), Type.Null()]),
  geocoderUrl: Type.Union([Type.String(), Type.Null()]),
  /** The installation's VAPID public key (base64url) for `PushManager.subscribe`; null: no Web Push here. */
  pushPublicKey: Type.Union([Type.String(), Type.Null()]),
  /** Whether alarms can go by SMS here (`SMS_URL`): the console offers a phone number only then. */
  sms: Type.Boolean(),
});
export type ClientConfig = Static<typeof ClientConfig>;

export { CLIENT_VERSION } from './first-calls';

/** The session calls the browser demo answers too, as the server registers them. */
export const SESSION_ROUTES = {
  signOut: apiRoute('POST', '/signout', {
    tags: ['session'],
    summary: 'Sign out: revokes this token',
    response: { 200: OkAnswer },
  }),
  self: apiRoute('GET', SELF_PATH, {
    tags: ['session'],
    summary: 'The signed-in user',
    response: { 200: SelfAnswer, 401: ErrorAnswer },
  }),
  eventLog: apiRoute('POST', '/event-log', {
    tags: ['system'],
    summary: 'Report a crash of the web client',
    body: EventLogBody,
    response: { 200: OkAnswer, 400: ErrorAnswer, 413: ErrorAnswer, 429: ErrorAnswer },
  }),
  clientConfig: apiRoute('GET', '/client-config', {
    tags: ['system'],
    summary: 'Public configuration of the web client',
    response: { 200: ClientConfig },
  }),
};

const sessionStartErrors = errorAnswers(400, 401, 409, 429);

/**
 * The calls that start a session, as the server registers them: signing in, signing up from an
 * invitation, and a password reset. A browser demo answers none of them: they are its way out.
 */
export const SESSION_START_ROUTES = {
  signIn: apiRoute('POST', '/signin', {
    tags: ['session'],
    summary: 'Sign in',
    body: SigninBody,
    response: { 200: JwtAnswer, ...sessionStartErrors },
  }),
  signUp: apiRoute('POST', '/user', {
    tags: ['session'],
    summary: 'Sign up from an invitation',
    body: SignupBody,
    response: { 200: JwtAnswer, ...sessionStartErrors },
  }),
  emailResetCode: apiRoute('POST', '/user/password/email-reset-code', {
    tags: ['session'],
    summary: 'Mail a password reset link',
    body: EmailResetCodeBody,
    response: { 200: OkAnswer, ...sessionStartErrors },
  }),
  passwordReset: apiRoute('POST', '/user/password', {
    tags: ['session'],
    summary: 'Set a new password with a mailed code',
    body: PasswordResetBody,
    response: { 200: JwtAnswer, ...sessionStartErrors },
  }),
};
