import { scenePath, widgetPath } from '@fieldlink/domain/group-path';
import type { DeviceAction } from '@fieldlink/domain/device-actions';
import type { Capability } from '@fieldlink/domain/permissions';
import { BREW_AUTHORIZATION, type BrewIds } from './brew-matrix';

/**
 * What every route of the server needs, for the authorisation matrix (SECURITY.md 1 and 2;
 * `authorization-matrix.test.ts`). The test reads the server's own route table and fails for any
 * route missing here, so a new route cannot ship without saying who may call it and with which ids.
 */

/** The ids of one account, as its own users see them. */
export interface AccountIds {
  accountId: string;
  rootGroupId: string;
  rootPath: string;
  /** An ordinary group holding `deviceId`. */
  groupId: string;
  groupPath: string;
  /** A second ordinary group. */
  otherGroupId: string;
  /** An ordinary group with nothing in it (deleted by the positive check). */
  emptyGroupId: string;
  deviceId: string;
  thingName: string;
  /** A tag of `deviceId`. */
  tagId: string;
  /** A user without permissions, attached at the root. */
  userEmail: string;
  /** An unused invitation at the root. */
  invitationEmail: string;
  /** A scene on `groupId` holding the widgets below; the only scene of that group. */
  sceneId: string;
  scenePath: string;
  /** A widget of `sceneId`. */
  widgetId: string;
  widgetPath: string;
  /** A second widget of `sceneId` (deleted by the positive check). */
  spareWidgetPath: string;
  /** A scene on `otherGroupId` (deleted by the positive check). */
  spareScenePath: string;
  /** An active alarm of `deviceId`. */
  alarmId: string;
  /** A product counted by `deviceId`'s c1 (the device is made a smart shelf). */
  productId: string;
  /** A READY, PUBLIC report on `deviceId`, with its file. */
  reportId: string;
  /** A second report (deleted by the positive check). */
  spareReportId: string;
  /** A report schedule on `deviceId`, and a spare one (deleted by the positive check). */
  scheduleId: string;
  spareScheduleId: string;
  /** Batches and their items on `deviceId` (testing/brew-matrix.ts). */
  brew: BrewIds;
  /**
   * A personal API token (issue 38 item 3): in the caller's account the administrator's own (revoked
   * by the positive check), in another account a token of its plain user.
   */
  apiTokenId: string;
  /** A webhook of the account, and a spare one (deleted by the positive check). */
  webhookId: string;
  spareWebhookId: string;
  /** A signed-in session (issue 38 item 4): the administrator's own spare one, another account's user's. */
  sessionId: string;
  /** A passkey: the administrator's own (removed by the positive check), another account's user's. */
  passkeyId: string;
}

export interface MatrixRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** One way of calling a route and who may make that call. */
export interface RouteUse {
  /**
   * `signedIn`: any signed-in user; a capability the call needs (§6 table); or an action on a device,
   * whose row of the domain's `DEVICE_ACTION_CAPABILITIES` its real-time twin shares.
   */
  access: 'signedIn' | Capability | { deviceAction: DeviceAction };
  /** A call on the caller's own account; `caller` is the caller's e-mail. */
  own(ids: AccountIds, caller: string): MatrixRequest;
  /**
   * Calls naming another account's entities somewhere, each of which must be refused and change
   * nothing. The test builds them once with another account's ids and once with ids that do not
   * exist, and requires the two answers to be the same: an answer must not tell whether an id exists.
   */
  foreign(own: AccountIds, other: AccountIds, caller: string): MatrixRequest[];
  /** Set when the positive check cannot run in a customer account (say why). */
  noPositive?: string;
  /** The status a missing permission is refused with where the specification names one; else 403. */
  refusedWith?: 401;
}

export type RouteRule =
  | { kind: 'public'; why: string }
  | { kind: 'device'; why: string }
  | { kind: 'operator'; why: string }
  | { kind: 'socket'; why: string }
  /**
   * A list call that leaves out what the caller may not see rather than refusing (`ids=a,b`): its
   * foreign answers may be 2xx, but must equal the answers for missing ids exactly.
   */
  | { kind: 'api'; uses: RouteUse[]; filtersOutOfScope?: boolean };

const api = (...uses: RouteUse[]): RouteRule => ({ kind: 'api', uses });

/** A browser's subscription as `PushSubscription.toJSON()` gives it (the push service is not called). */
const PUSH_SUBSCRIPTION = {
  endpoint: 'https://push.fieldlink.test/send/matrix',
  keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
};
/** A webhook to a closed port on loopback (the matrix allows private addresses): a test call fails fast. */
export const MATRIX_WEBHOOK_URL = 'http://127.0.0.1:9/matrix';

const webhookBody = (accountId: string) => ({ accountId, url: MATRIX_WEBHOOK_URL, events: ['alarm.raised'] });

/** A passkey's answer of the right shape that no challenge awaits: refused by permission, else by the check. */
const PASSKEY_ANSWER = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
};

/** Every route: `METHOD /path` as the route table lists it. */
export const AUTHORIZATION_MATRIX: Record<string, RouteRule> = {
  'POST /api/v1/signin': { kind: 'public', why: 'sign-in; rate limited (session tests)' },
  'POST /api/v1/signin/passkey/options': {
    kind: 'public',
    why: 'a passwordless sign-in’s challenge; names nothing; rate limited per address (passkeys tests)',
  },
  'POST /api/v1/signin/passkey': { kind: 'public', why: 'sign-in with a passkey; rate limited (passkeys tests)' },
  'POST /api/v1/user': { kind: 'public', why: 'sign-up with a mailed invitation code (session tests)' },
  'POST /api/v1/user/password': { kind: 'public', why: 'password reset with a mailed code (session tests)' },
  'POST /api/v1/user/password/email-reset-code': {
    kind: 'public',
    why: 'answers the same for every e-mail (session tests)',
  },
  'POST /api/v1/event-log': { kind: 'public', why: 'crash reports, before sign-in too; names no entity' },
  'GET /api/v1/client-config': { kind: 'public', why: 'public configuration of the web client' },
  'GET /api/v1/videos': { kind: 'public', why: 'the video library of the public /videos/* pages' },
  'GET /api/v1/videos/*': { kind: 'public', why: 'the video files of VIDEOS_DIR (only video files, no listing)' },
  'GET /api/v1/health': { kind: 'public', why: 'liveness' },
  'GET /api/v1/ready': { kind: 'public', why: 'readiness, for load balancers' },
  'GET /api/v1/docs/device-protocol': {
    kind: 'public',
    why: 'docs/device-protocol.md, linked beside new device credentials',
  },
  'GET /api/v1/docs': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/*': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/json': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/yaml': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/static/index.html': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/static/swagger-initializer.js': { kind: 'public', why: 'API documentation' },
  'GET /*': { kind: 'public', why: 'the web console’s files' },
  'GET /': { kind: 'public', why: 'the web console’s files' },
  'GET /manifest.webmanifest': { kind: 'public', why: 'the web console’s install manifest; names no entity' },
  'GET /metrics': { kind: 'operator', why: 'Prometheus counters, no entity; METRICS_TOKEN guards it' },
  'GET /mqtt': { kind: 'device', why: 'MQTT over WebSocket: device credentials and topic ACL (broker tests)' },
  'GET /api/v1/realtime': { kind: 'socket', why: 'every action is tried in the matrix’s real-time part' },
  'GET /api/v1/file': {
    kind: 'public',
    why: 'a stored file through a short-lived HMAC-signed link that a checked call answered (reports tests)',
  },
  'GET /api/v1/alarm-link': {
    kind: 'public',
    why: 'the confirmation page of an HMAC-signed, expiring, one-time acknowledge link; changes nothing (notifications tests)',
  },
  'POST /api/v1/alarm-link': {
    kind: 'public',
    why: 'acknowledges with an HMAC-signed one-time link, as its user, whose right is checked again (notifications tests)',
  },
  'GET /api/v1/report/public/:token': {
    kind: 'public',
    why: 'a PUBLIC report’s file through its 256-bit revocable link (reports tests)',
  },

  'POST /api/v1/signout': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/signout' }),
    foreign: () => [],
  }),
  // Web Push (features/push): the caller's own browsers; no id of anything else is taken, and an
  // endpoint another user has is only ever reached by that user's calls (push.test.ts).
  'POST /api/v1/push-subscriptions': api({
    access: 'signedIn',
    own: () => ({ method: 'POST', url: '/api/v1/push-subscriptions', body: PUSH_SUBSCRIPTION }),
    foreign: () => [],
    noPositive: 'needs a push service the server may call; push.test.ts subscribes on loopback',
  }),
  'DELETE /api/v1/push-subscriptions': api({
    access: 'signedIn',
    own: () => ({
      method: 'DELETE',
      url: '/api/v1/push-subscriptions',
      body: { endpoint: PUSH_SUBSCRIPTION.endpoint },
    }),
    foreign: () => [],
    noPositive: 'needs a subscription first; push.test.ts removes its own and not another user’s',
  }),
  'POST /api/v1/push-subscriptions/test': api({
    access: 'signedIn',
    own: () => ({ method: 'POST', url: '/api/v1/push-subscriptions/test' }),
    foreign: () => [],
  }),
  // Personal API tokens (features/api-tokens, issue 38 item 3): one's own, from a session only.
  'POST /api/v1/api-tokens': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/api-tokens', body: { name: 'Matrix', readOnly: true } }),
    foreign: () => [],
  }),
  'GET /api/v1/api-tokens': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'GET', url: '/api/v1/api-tokens' }),
    foreign: () => [],
  }),
  'DELETE /api/v1/api-tokens': api({
    access: 'manageOwnCredentials',
    own: (ids) => ({ method: 'DELETE', url: '/api/v1/api-tokens', query: { id: ids.apiTokenId } }),
    foreign: (_own, other) => [{ method: 'DELETE', url: '/api/v1/api-tokens', query: { id: other.apiTokenId } }],
  }),
  // Signed-in sessions (features/session, issue 38 item 4): one's own, from a session only.
  'GET /api/v1/sessions': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'GET', url: '/api/v1/sessions' }),
    foreign: () => [],
  }),
  'DELETE /api/v1/sessions': api({
    access: 'manageOwnCredentials',
    own: (ids) => ({ method: 'DELETE', url: '/api/v1/sessions', query: { id: ids.sessionId } }),
    foreign: (_own, other) => [{ method: 'DELETE', url: '/api/v1/sessions', query: { id: other.sessionId } }],
  }),
  'DELETE /api/v1/sessions/others': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'DELETE', url: '/api/v1/sessions/others' }),
    foreign: () => [],
  }),
  'GET /api/v1/self': api({
    access: 'signedIn',
    own: () => ({ method: 'GET', url: '/api/v1/self' }),
    foreign: () => [],
  }),
  // The caller's own second factor (features/mfa): names no entity but the caller; no API token.
  'GET /api/v1/user/mfa': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'GET', url: '/api/v1/user/mfa' }),
    foreign: () => [],
  }),
  'POST /api/v1/user/mfa/totp': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/user/mfa/totp' }),
    foreign: () => [],
  }),
  'POST /api/v1/user/mfa/totp/confirm': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/user/mfa/totp/confirm', body: { code: '000000' } }),
    foreign: () => [],
    noPositive: 'needs a current code of the caller’s authenticator app (features/mfa/mfa.test.ts)',
  }),
  'DELETE /api/v1/user/mfa/totp': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'DELETE', url: '/api/v1/user/mfa/totp', body: { code: '000000' } }),
    foreign: () => [],
    noPositive: 'needs a current code of the caller’s authenticator app (features/mfa/mfa.test.ts)',
  }),
  // The caller's own passkeys (features/passkeys): name no entity but the caller's own; no API token.
  'GET /api/v1/user/passkeys': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'GET', url: '/api/v1/user/passkeys' }),
    foreign: () => [],
  }),
  'POST /api/v1/user/passkeys/options': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/user/passkeys/options' }),
    foreign: () => [],
  }),
  'POST /api/v1/user/passkeys': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/user/passkeys', body: { name: 'Matrix', credential: PASSKEY_ANSWER } }),
    foreign: () => [],
    noPositive: 'needs an authenticator’s answer to the options (features/passkeys/passkeys.test.ts)',
  }),
  'DELETE /api/v1/user/passkeys': api({
    access: 'manageOwnCredentials',
    own: (ids) => ({ method: 'DELETE', url: '/api/v1/user/passkeys', query: { id: ids.passkeyId } }),
    foreign: (_own, other) => [{ method: 'DELETE', url: '/api/v1/user/passkeys', query: { id: other.passkeyId } }],
  }),
  // The caller's own phone for SMS alerts (features/sms): names no entity but the caller; no API token.
  'GET /api/v1/user/phone': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'GET', url: '/api/v1/user/phone' }),
    foreign: () => [],
    noPositive: 'needs SMS_URL; sms.test.ts reads it on a server with a test SMS gateway',
  }),
  'PUT /api/v1/user/phone': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'PUT', url: '/api/v1/user/phone', body: { phone: '+447700900123' } }),
    foreign: () => [],
    noPositive: 'needs SMS_URL; sms.test.ts sends codes through a test SMS gateway',
  }),
  'POST /api/v1/user/phone/verify': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'POST', url: '/api/v1/user/phone/verify', body: { code: '000000' } }),
    foreign: () => [],
    noPositive: 'needs the code an SMS carried (features/sms/sms.test.ts)',
  }),
  'DELETE /api/v1/user/phone': api({
    access: 'manageOwnCredentials',
    own: () => ({ method: 'DELETE', url: '/api/v1/user/phone' }),
    foreign: () => [],
    noPositive: 'needs a phone first; sms.test.ts removes its own',
  }),
  'GET /api/v1/account': api({
    access: 'signedIn',
    own: () => ({ method: 'GET', url: '/api/v1/account' }),
    foreign: () => [],
  }),

  // Users (features/users).
  'GET /api/v1/user': api(
    {
      access: 'viewAccounts',
      own: (ids) => ({ method: 'GET', url: '/api/v1/user', query: { email: ids.userEmail } }),
      foreign: (own, other): MatrixRequest[] => [
        { method: 'GET', url: '/api/v1/user', query: { email: other.userEmail } },
        { method: 'GET', url: '/api/v1/user', query: { email: own.userEmail, accountId: other.accountId } },
      ],
    },
    {
      access: 'signedIn',
      own: (_ids, caller) => ({ method: 'GET', url: '/api/v1/user', query: { email: caller } }),
      foreign: (_own, other, caller) => [
        { method: 'GET', url: '/api/v1/user', query: { email: caller, accountId: other.accountId } },
      ],
    },
  ),
  'PUT /api/v1/user': api(
    {
      access: 'editUsers',
      own: (ids) => ({
        method: 'PUT',
        url: '/api/v1/user',
        body: { email: ids.userEmail, props: { lastName: 'Moved' } },
      }),
      foreign: (_own, other) => [
        { method: 'PUT', url: '/api/v1/user', body: { email: other.userEmail, props: { lastName: 'Taken' } } },
        { method: 'PUT', url: '/api/v1/user', body: { email: other.userEmail, props: { permissions: [] } } },
      ],
    },
    {
      access: 'signedIn',
      own: (_ids, caller) => ({
        method: 'PUT',
        url: '/api/v1/user',
        body: { email: caller, props: { theme: 'DARK' } },
      }),
      foreign: (_own, other, caller) => [
        { method: 'PUT', url: '/api/v1/user', body: { email: caller, props: { mutedDevices: [other.thingName] } } },
      ],
    },
  ),
  'POST /api/v1/invite-user': api({
    access: 'inviteUsers',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/invite-user',
      body: { email: 'matrix-invitee@matrix.test', path: ids.groupPath, permissions: [] },
    }),
    foreign: (_own, other) => [
      {
        method: 'POST',
        url: '/api/v1/invite-user',
        body: { email: 'matrix-invitee@matrix.test', path: other.groupPath, permissions: [] },
      },
    ],
  }),
  'POST /api/v1/reinvite-user': api({
    access: 'inviteUsers',
    own: (ids) => ({ method: 'POST', url: '/api/v1/reinvite-user', body: { email: ids.invitationEmail } }),
    foreign: (_own, other) => [
      { method: 'POST', url: '/api/v1/reinvite-user', body: { email: other.invitationEmail } },
    ],
  }),

  // Groups and moves (features/groups).
  'POST /api/v1/group': api({
    access: 'editGroups',
    own: (ids) => ({ method: 'POST', url: '/api/v1/group', body: { parentId: ids.groupId, name: 'Matrix' } }),
    foreign: (_own, other) => [
      { method: 'POST', url: '/api/v1/group', body: { parentId: other.groupId, name: 'Mine' } },
    ],
  }),
  'PUT /api/v1/group': api({
    access: 'editGroups',
    own: (ids) => ({ method: 'PUT', url: '/api/v1/group', body: { id: ids.otherGroupId, name: 'Matrix renamed' } }),
    foreign: (_own, other) => [
      { method: 'PUT', url: '/api/v1/group', body: { id: other.groupId, name: 'Mine' } },
      { method: 'PUT', url: '/api/v1/group', body: { id: other.rootGroupId, name: 'Mine' } },
    ],
  }),
  'DELETE /api/v1/group': api({
    access: 'editGroups',
    own: (ids) => ({ method: 'DELETE', url: '/api/v1/group', body: { id: ids.emptyGroupId } }),
    foreign: (_own, other) => [{ method: 'DELETE', url: '/api/v1/group', body: { id: other.emptyGroupId } }],
  }),
  'POST /api/v1/move': api({
    access: 'editGroups',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/move',
      body: { type: 'DEVICE', id: ids.deviceId, sourceGroupId: ids.groupId, destinationGroupId: ids.otherGroupId },
    }),
    foreign: (own, other) =>
      [
        { type: 'DEVICE', id: other.deviceId, sourceGroupId: other.groupId, destinationGroupId: own.groupId },
        { type: 'DEVICE', id: other.deviceId, sourceGroupId: own.groupId, destinationGroupId: own.otherGroupId },
        { type: 'DEVICE', id: own.deviceId, sourceGroupId: own.groupId, destinationGroupId: other.groupId },
        { type: 'GROUP', id: other.emptyGroupId, sourceGroupId: other.rootGroupId, destinationGroupId: own.groupId },
        { type: 'GROUP', id: own.emptyGroupId, sourceGroupId: own.rootGroupId, destinationGroupId: other.groupId },
        { type: 'USER', id: other.userEmail, sourceGroupId: other.rootGroupId, destinationGroupId: own.groupId },
        { type: 'USER', id: other.userEmail, sourceGroupId: own.rootGroupId, destinationGroupId: own.groupId },
        { type: 'USER', id: own.userEmail, sourceGroupId: own.rootGroupId, destinationGroupId: other.groupId },
      ].map((body) => ({ method: 'POST' as const, url: '/api/v1/move', body })),
  }),

  // Scenes and widgets (features/scenes): a path names its group, so both the account id and the
  // path's group must be the caller's; a widget's channels must be devices the caller sees.
  'GET /api/v1/scenes': api({
    access: 'viewDashboard',
    own: (ids) => ({ method: 'GET', url: '/api/v1/scenes', query: { accountId: ids.accountId, groupId: ids.groupId } }),
    foreign: (own, other) =>
      [
        { accountId: other.accountId, groupId: other.groupId },
        { accountId: own.accountId, groupId: other.groupId },
        { accountId: other.accountId, groupId: own.groupId },
      ].map((query) => ({ method: 'GET' as const, url: '/api/v1/scenes', query })),
  }),
  'POST /api/v1/scene': api({
    access: 'editScenes',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/scene',
      body: { scene: { name: 'Matrix scene', accountId: ids.accountId, groupId: ids.rootGroupId } },
    }),
    foreign: (own, other) =>
      [
        { accountId: other.accountId, groupId: other.groupId },
        { accountId: own.accountId, groupId: other.groupId },
        { accountId: other.accountId, groupId: own.groupId },
      ].map((scene) => ({
        method: 'POST' as const,
        url: '/api/v1/scene',
        body: { scene: { name: 'Planted', ...scene } },
      })),
  }),
  'PUT /api/v1/scene': api({
    access: 'editScenes',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/scene',
      body: { accountId: ids.accountId, path: ids.scenePath, props: { name: 'Matrix renamed', isGridLocked: false } },
    }),
    foreign: (own, other) =>
      foreignScenePaths(own, other).map((target) => ({
        method: 'PUT' as const,
        url: '/api/v1/scene',
        body: { ...target, props: { name: 'Taken' } },
      })),
  }),
  'DELETE /api/v1/scene': api({
    access: 'editScenes',
    own: (ids) => ({
      method: 'DELETE',
      url: '/api/v1/scene',
      body: { accountId: ids.accountId, path: ids.spareScenePath },
    }),
    foreign: (own, other) =>
      foreignScenePaths(own, other).map((body) => ({ method: 'DELETE' as const, url: '/api/v1/scene', body })),
  }),
  'PUT /api/v1/scenes/order': api({
    access: 'editScenes',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/scenes/order',
      body: { accountId: ids.accountId, groupId: ids.groupId, sceneIds: [ids.sceneId] },
    }),
    foreign: (own, other) =>
      [
        { accountId: other.accountId, groupId: other.groupId, sceneIds: [other.sceneId] },
        { accountId: own.accountId, groupId: other.groupId, sceneIds: [other.sceneId] },
        { accountId: own.accountId, groupId: own.groupId, sceneIds: [own.sceneId, other.sceneId] },
      ].map((body) => ({ method: 'PUT' as const, url: '/api/v1/scenes/order', body })),
  }),
  'POST /api/v1/gridlayout': api({
    access: 'editWidgets',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/gridlayout',
      body: {
        accountId: ids.accountId,
        path: ids.scenePath,
        gridLayout: { lg: [{ i: ids.widgetId, x: 0, y: 0, w: 4, h: 4 }] },
      },
    }),
    foreign: (own, other) =>
      foreignScenePaths(own, other).map((target) => ({
        method: 'POST' as const,
        url: '/api/v1/gridlayout',
        body: { ...target, gridLayout: { lg: [{ i: other.widgetId, x: 0, y: 0, w: 4, h: 4 }] } },
      })),
  }),
  'PUT /api/v1/widget': api({
    access: 'editWidgets',
    own: (ids) => ({ method: 'PUT', url: '/api/v1/widget', body: { widget: matrixWidget(ids, ids, ids.deviceId) } }),
    foreign: (own, other) =>
      [
        matrixWidget(other, other, other.deviceId),
        matrixWidget(own, other, own.deviceId),
        matrixWidget(own, own, other.deviceId),
        { ...matrixWidget(own, own, own.deviceId), id: other.widgetId },
      ].map((widget) => ({ method: 'PUT' as const, url: '/api/v1/widget', body: { widget } })),
  }),
  'DELETE /api/v1/widget': api({
    access: 'editWidgets',
    own: (ids) => ({
      method: 'DELETE',
      url: '/api/v1/widget',
      body: { accountId: ids.accountId, path: ids.spareWidgetPath },
    }),
    foreign: (own, other) =>
      [
        { accountId: other.accountId, path: other.widgetPath },
        { accountId: own.accountId, path: other.widgetPath },
        { accountId: own.accountId, path: widgetPath(own.groupId, own.sceneId, other.widgetId) },
      ].map((body) => ({ method: 'DELETE' as const, url: '/api/v1/widget', body })),
  }),

  // Devices (features/devices).
  // Reading device data needs the right the real-time channel checks (the domain's `read` row).
  'GET /api/v1/device': api({
    access: { deviceAction: 'read' },
    own: (ids) => ({ method: 'GET', url: '/api/v1/device', query: { id: ids.deviceId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/device', query: { id: other.deviceId } }],
  }),
  // The device table names no entity: what it leaves out of scope is tested in device-table.test.ts.
  'GET /api/v1/devices/table': api(
    {
      access: { deviceAction: 'read' },
      own: () => ({ method: 'GET', url: '/api/v1/devices/table' }),
      foreign: () => [],
    },
    {
      access: { deviceAction: 'read' },
      own: () => ({ method: 'GET', url: '/api/v1/devices/table', query: { format: 'binary' } }),
      foreign: () => [],
    },
  ),
  // OTA (application §7): per-item answers, so another account's device is a failed item exactly like
  // a missing one (no id repeated), and nothing is written when no item is accepted.
  'POST /api/v1/devices/ota-submit': {
    kind: 'api',
    filtersOutOfScope: true,
    uses: [
      {
        access: 'submitOta',
        own: (ids) => ({
          method: 'POST',
          url: '/api/v1/devices/ota-submit',
          body: { deviceIds: [ids.deviceId], updateCommand: 'firmware 9.9.9', skipApproval: false },
        }),
        foreign: (_own, other) => [
          {
            method: 'POST',
            url: '/api/v1/devices/ota-submit',
            body: { deviceIds: [other.deviceId], updateCommand: 'firmware 9.9.9', skipApproval: true },
          },
        ],
      },
    ],
  },
  'POST /api/v1/devices/ota-approve': {
    kind: 'api',
    filtersOutOfScope: true,
    uses: [
      {
        access: 'viewPendingOta',
        own: (ids) => ({ method: 'POST', url: '/api/v1/devices/ota-approve', body: { deviceIds: [ids.deviceId] } }),
        foreign: (_own, other) => [
          { method: 'POST', url: '/api/v1/devices/ota-approve', body: { deviceIds: [other.deviceId] } },
        ],
      },
    ],
  },
  // Names no entity: it lists the pending devices in the caller's scope (ota.test.ts).
  'GET /api/v1/devices/ota-pending': api({
    access: 'viewPendingOta',
    own: () => ({ method: 'GET', url: '/api/v1/devices/ota-pending' }),
    foreign: () => [],
  }),
  // Names no entity: the rollouts reaching the caller's scope, with only those devices (ota.test.ts).
  'GET /api/v1/devices/ota-rollouts': api({
    access: 'viewPendingOta',
    own: () => ({ method: 'GET', url: '/api/v1/devices/ota-rollouts' }),
    foreign: () => [],
  }),
  // Spray (application §7): a missing MOSNIX_BROADCAST_SPRAY answers 401, as §6 says.
  'POST /api/v1/mosnix/broadcast-spray': api({
    access: 'broadcastSpray',
    refusedWith: 401,
    own: (ids) => ({ method: 'POST', url: '/api/v1/mosnix/broadcast-spray', body: { groupId: ids.groupId } }),
    foreign: (_own, other) => [
      { method: 'POST', url: '/api/v1/mosnix/broadcast-spray', body: { groupId: other.groupId } },
    ],
  }),
  'POST /api/v1/device': api({
    access: 'addDevices',
    own: (ids) => ({ method: 'POST', url: '/api/v1/device', body: { name: 'Matrix device', groupId: ids.groupId } }),
    foreign: (_own, other) => [
      { method: 'POST', url: '/api/v1/device', body: { name: 'Planted', groupId: other.groupId } },
      { method: 'POST', url: '/api/v1/device', body: { name: 'Planted', accountId: other.accountId } },
    ],
  }),
  'POST /api/v1/devices/import': api({
    access: 'addDevices',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/devices/import',
      body: { accountId: ids.accountId, csv: 'name,serial,group path\nMatrix import,,\n', dryRun: false },
    }),
    foreign: (_own, other) => [
      {
        method: 'POST',
        url: '/api/v1/devices/import',
        body: { accountId: other.accountId, csv: 'name,serial,group path\nPlanted,,\n', dryRun: false },
      },
      {
        method: 'POST',
        url: '/api/v1/devices/import',
        body: { accountId: other.accountId, csv: 'name,serial,group path\nPlanted,,\n', dryRun: true },
      },
    ],
  }),
  'POST /api/v1/device-config': api(
    {
      access: 'configureDevices',
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { name: 'Renamed' } },
      }),
      foreign: (_own, other) => [
        { method: 'POST', url: '/api/v1/device-config', body: { id: other.deviceId, props: { name: 'Taken' } } },
      ],
    },
    {
      access: { deviceAction: 'writeRegister' },
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { settings: { registers: { '5405': 1 } } } },
      }),
      foreign: (_own, other) => [
        {
          method: 'POST',
          url: '/api/v1/device-config',
          body: { id: other.deviceId, props: { settings: { registers: { '5405': 1 } } } },
        },
      ],
    },
    {
      access: { deviceAction: 'timeDate' },
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { settings: { timeDate: { tzName: 'UTC', tzRule: 'UTC0' } } } },
      }),
      foreign: (_own, other) => [
        {
          method: 'POST',
          url: '/api/v1/device-config',
          body: { id: other.deviceId, props: { settings: { timeDate: { tzName: 'UTC', tzRule: 'UTC0' } } } },
        },
      ],
    },
    {
      access: { deviceAction: 'writeConfig' },
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { settings: { channels: [{ code: 'c1', name: 'Inlet' }], logInterval: 30 } } },
      }),
      foreign: (_own, other) => [
        {
          method: 'POST',
          url: '/api/v1/device-config',
          body: { id: other.deviceId, props: { settings: { uploadInterval: 5 } } },
        },
      ],
    },
    {
      access: { deviceAction: 'writeChannel' },
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { settings: { setpoints: { sp1: 4 } } } },
      }),
      foreign: (_own, other) => [
        {
          method: 'POST',
          url: '/api/v1/device-config',
          body: { id: other.deviceId, props: { settings: { setpoints: { sp1: 4 } } } },
        },
      ],
    },
    {
      access: 'configureDevices',
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { customAttributes: { contract: 'C-12' } } },
      }),
      foreign: (_own, other) => [
        {
          method: 'POST',
          url: '/api/v1/device-config',
          body: { id: other.deviceId, props: { customAttributes: { contract: 'planted' } } },
        },
      ],
    },
    {
      access: 'muteOwnDevices',
      own: (ids) => ({
        method: 'POST',
        url: '/api/v1/device-config',
        body: { id: ids.deviceId, props: { muteDisconnection: true } },
      }),
      foreign: (_own, other) => [
        {
          method: 'POST',
          url: '/api/v1/device-config',
          body: { id: other.deviceId, props: { muteDisconnection: true } },
        },
      ],
    },
  ),
  'PUT /api/v1/device/tag': api({
    access: 'configureDevices',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/device/tag',
      body: { deviceId: ids.deviceId, key: 'site', value: 'A' },
    }),
    // Tag ids live inside their device: only the device id can name another account's entity.
    foreign: (_own, other) => [
      { method: 'PUT', url: '/api/v1/device/tag', body: { deviceId: other.deviceId, key: 'site', value: 'B' } },
      {
        method: 'PUT',
        url: '/api/v1/device/tag',
        body: { deviceId: other.deviceId, tagId: other.tagId, key: 'site', value: 'B' },
      },
    ],
  }),
  'DELETE /api/v1/device/tag': api({
    access: 'configureDevices',
    own: (ids) => ({ method: 'DELETE', url: '/api/v1/device/tag', body: { deviceId: ids.deviceId, tagId: ids.tagId } }),
    foreign: (_own, other) => [
      { method: 'DELETE', url: '/api/v1/device/tag', body: { deviceId: other.deviceId, tagId: other.tagId } },
    ],
  }),
  'PUT /api/v1/device/plan': api({
    access: 'viewDevicePlan',
    own: (ids) => ({ method: 'PUT', url: '/api/v1/device/plan', body: { id: ids.deviceId, plan: 'PREMIUM' } }),
    foreign: (_own, other) => [
      { method: 'PUT', url: '/api/v1/device/plan', body: { id: other.deviceId, plan: 'FREE' } },
    ],
    noPositive: 'only the supplier’s administrators change plans; a customer’s admin is told to contact them',
  }),
  'GET /api/v1/device/connections': api({
    access: { deviceAction: 'read' },
    own: (ids) => ({ method: 'GET', url: '/api/v1/device/connections', query: { deviceId: ids.deviceId } }),
    foreign: (_own, other) => [
      { method: 'GET', url: '/api/v1/device/connections', query: { deviceId: other.deviceId } },
    ],
  }),
  'GET /api/v1/device/channels/latest-values': {
    kind: 'api',
    filtersOutOfScope: true,
    uses: [
      {
        access: { deviceAction: 'read' },
        own: (ids) => ({ method: 'GET', url: '/api/v1/device/channels/latest-values', query: { ids: ids.deviceId } }),
        foreign: (_own, other) => [
          { method: 'GET', url: '/api/v1/device/channels/latest-values', query: { ids: other.deviceId } },
        ],
      },
    ],
  },
  'GET /api/v1/device-logs': api({
    access: { deviceAction: 'read' },
    own: (ids) => ({ method: 'GET', url: '/api/v1/device-logs', query: logsQuery(ids.deviceId) }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/device-logs', query: logsQuery(other.deviceId) }],
  }),
  // One use per message: each needs its device action's row, as the real-time channel does.
  'POST /api/v1/message': api(
    ...(
      [
        ['writeChannel', { cmd: 'writeChannel', code: 'sp1', value: 1 }],
        ['writeRegister', { cmd: 'writeRegister', register: 1, value: 1 }],
        ['refreshMetadata', { cmd: 'refreshMetadata' }],
        ['system', { cmd: 'system', command: 'FLASH LED' }],
        ['timeDate', { cmd: 'timeDate', tzName: 'UTC', tzRule: 'UTC0' }],
        ['writeConfig', { cmd: 'writeConfig', channels: [{ code: 'c1', upload: false }] }],
      ] as const
    ).map(([deviceAction, message]): RouteUse => ({
      access: { deviceAction },
      own: (ids) => ({ method: 'POST', url: '/api/v1/message', body: { deviceId: ids.deviceId, message } }),
      foreign: (_own, other) => [
        { method: 'POST', url: '/api/v1/message', body: { deviceId: other.deviceId, message } },
      ],
    })),
  ),

  // Alarms (features/alarms).
  'GET /api/v1/device/alarms': api({
    access: { deviceAction: 'read' },
    own: (ids) => ({ method: 'GET', url: '/api/v1/device/alarms', query: { deviceId: ids.deviceId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/device/alarms', query: { deviceId: other.deviceId } }],
  }),
  'PUT /api/v1/device/alarm': api({
    access: 'configureAlarms',
    own: (ids) => ({ method: 'PUT', url: '/api/v1/device/alarm', body: { alarm: alarmConfig(ids.deviceId) } }),
    foreign: (_own, other) => [
      { method: 'PUT', url: '/api/v1/device/alarm', body: { alarm: alarmConfig(other.deviceId) } },
    ],
  }),
  'GET /api/v1/alarms': api({
    access: 'signedIn',
    own: (ids) => ({ method: 'GET', url: '/api/v1/alarms', query: { deviceId: ids.deviceId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/alarms', query: { deviceId: other.deviceId } }],
  }),
  'POST /api/v1/alarms/acknowledge': api({
    access: 'respondToAlarms',
    own: (ids) => ({ method: 'POST', url: '/api/v1/alarms/acknowledge', body: { ids: [ids.alarmId] } }),
    foreign: (own, other) => [
      { method: 'POST', url: '/api/v1/alarms/acknowledge', body: { ids: [other.alarmId] } },
      { method: 'POST', url: '/api/v1/alarms/acknowledge', body: { ids: [own.alarmId, other.alarmId] } },
    ],
  }),
  // The audit trail (features/audit): administrators whose scope holds the whole account.
  'GET /api/v1/audit-log': api({
    access: 'readAuditLog',
    own: (ids) => ({ method: 'GET', url: '/api/v1/audit-log', query: { accountId: ids.accountId } }),
    foreign: (_own, other): MatrixRequest[] => [
      { method: 'GET', url: '/api/v1/audit-log', query: { accountId: other.accountId } },
      { method: 'GET', url: '/api/v1/audit-log', query: { accountId: other.accountId, action: 'group.add' } },
    ],
  }),
  'GET /api/v1/audit-log/choices': api({
    access: 'readAuditLog',
    own: (ids) => ({ method: 'GET', url: '/api/v1/audit-log/choices', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [
      { method: 'GET', url: '/api/v1/audit-log/choices', query: { accountId: other.accountId } },
    ],
  }),
  'GET /api/v1/audit-log/verify': api({
    access: 'readAuditLog',
    own: (ids) => ({ method: 'GET', url: '/api/v1/audit-log/verify', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [
      { method: 'GET', url: '/api/v1/audit-log/verify', query: { accountId: other.accountId } },
    ],
  }),
  // An account's requirement of a second factor (features/mfa): administrators whose scope holds the
  // whole account, from a signed-in session.
  'GET /api/v1/account/second-factor': api({
    access: 'requireSecondFactor',
    own: (ids) => ({ method: 'GET', url: '/api/v1/account/second-factor', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [
      { method: 'GET', url: '/api/v1/account/second-factor', query: { accountId: other.accountId } },
    ],
  }),
  'PUT /api/v1/account/second-factor': api({
    access: 'requireSecondFactor',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/account/second-factor',
      body: { accountId: ids.accountId, required: true },
    }),
    foreign: (_own, other) => [
      { method: 'PUT', url: '/api/v1/account/second-factor', body: { accountId: other.accountId, required: true } },
    ],
  }),
  // Who gets what (features/notifications): one's own preferences; an account's on-call rota.
  'GET /api/v1/user/notification-preferences': api({
    access: 'signedIn',
    own: () => ({ method: 'GET', url: '/api/v1/user/notification-preferences' }),
    foreign: () => [],
  }),
  'PUT /api/v1/user/notification-preferences': api({
    access: 'chooseOwnNotifications',
    own: () => ({
      method: 'PUT',
      url: '/api/v1/user/notification-preferences',
      body: {
        channels: {
          email: { alarms: 'severities', severities: ['CRITICAL'] },
          push: { alarms: 'all', severities: [] },
          sms: { alarms: 'none', severities: [] },
        },
        quietHours: { from: '22:00', to: '07:00', timeZone: 'Europe/Berlin' },
      },
    }),
    foreign: () => [],
  }),
  'GET /api/v1/account/on-call-rota': api({
    access: 'signedIn',
    own: (ids) => ({ method: 'GET', url: '/api/v1/account/on-call-rota', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [
      { method: 'GET', url: '/api/v1/account/on-call-rota', query: { accountId: other.accountId } },
    ],
  }),
  'PUT /api/v1/account/on-call-rota': api({
    access: 'manageOnCallRota',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/account/on-call-rota',
      query: { accountId: ids.accountId },
      body: { shifts: [] },
    }),
    foreign: (_own, other) => [
      {
        method: 'PUT',
        url: '/api/v1/account/on-call-rota',
        query: { accountId: other.accountId },
        body: { shifts: [] },
      },
    ],
  }),
  // Webhooks (features/webhooks): administrators whose scope holds the whole account.
  'GET /api/v1/webhooks': api({
    access: 'manageWebhooks',
    own: (ids) => ({ method: 'GET', url: '/api/v1/webhooks', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/webhooks', query: { accountId: other.accountId } }],
  }),
  'POST /api/v1/webhooks': api({
    access: 'manageWebhooks',
    own: (ids) => ({ method: 'POST', url: '/api/v1/webhooks', body: webhookBody(ids.accountId) }),
    foreign: (_own, other) => [{ method: 'POST', url: '/api/v1/webhooks', body: webhookBody(other.accountId) }],
  }),
  'PUT /api/v1/webhooks': api({
    access: 'manageWebhooks',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/webhooks',
      query: { id: ids.webhookId },
      body: { events: ['alarm.cleared'] },
    }),
    foreign: (_own, other) => [
      { method: 'PUT', url: '/api/v1/webhooks', query: { id: other.webhookId }, body: { events: ['alarm.cleared'] } },
    ],
  }),
  'DELETE /api/v1/webhooks': api({
    access: 'manageWebhooks',
    own: (ids) => ({ method: 'DELETE', url: '/api/v1/webhooks', query: { id: ids.spareWebhookId } }),
    foreign: (_own, other) => [{ method: 'DELETE', url: '/api/v1/webhooks', query: { id: other.webhookId } }],
  }),
  'POST /api/v1/webhooks/test': api({
    access: 'manageWebhooks',
    own: (ids) => ({ method: 'POST', url: '/api/v1/webhooks/test', query: { id: ids.webhookId } }),
    foreign: (_own, other) => [{ method: 'POST', url: '/api/v1/webhooks/test', query: { id: other.webhookId } }],
  }),
  'GET /api/v1/webhooks/deliveries': api({
    access: 'manageWebhooks',
    own: (ids) => ({ method: 'GET', url: '/api/v1/webhooks/deliveries', query: { id: ids.webhookId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/webhooks/deliveries', query: { id: other.webhookId } }],
  }),
  // Inventory (features/inventory): the group must be the caller's and of the named account.
  'GET /api/v1/inv/overview': api({
    access: 'signedIn',
    own: (ids) => ({ method: 'GET', url: '/api/v1/inv/overview', query: inventoryQuery(ids, ids) }),
    foreign: (own, other) =>
      [inventoryQuery(other, other), inventoryQuery(other, own), inventoryQuery(own, other)].map((query) => ({
        method: 'GET' as const,
        url: '/api/v1/inv/overview',
        query,
      })),
  }),
  'GET /api/v1/inv/store-status': api({
    access: 'loadStoreStock',
    own: (ids) => ({ method: 'GET', url: '/api/v1/inv/store-status', query: inventoryQuery(ids, ids) }),
    foreign: (own, other) =>
      [inventoryQuery(other, other), inventoryQuery(other, own), inventoryQuery(own, other)].map((query) => ({
        method: 'GET' as const,
        url: '/api/v1/inv/store-status',
        query,
      })),
  }),
  'GET /api/v1/inv/store-device-logs': api({
    access: 'loadStoreStock',
    own: (ids) => ({
      method: 'GET',
      url: '/api/v1/inv/store-device-logs',
      // The root: the positive check moves the device to another group before it gets here.
      query: { groupId: ids.rootGroupId, productIds: ids.productId },
    }),
    foreign: (own, other) =>
      [
        { groupId: other.groupId, productIds: other.productId },
        { groupId: own.rootGroupId, productIds: other.productId },
        { groupId: own.rootGroupId, productIds: `${own.productId},${other.productId}` },
        { groupId: other.groupId, productIds: own.productId },
      ].map((query) => ({ method: 'GET' as const, url: '/api/v1/inv/store-device-logs', query })),
  }),

  // Reports and schedules (features/reports): an id is refused unless it lies in the account named
  // and the caller may see it; devices, groups and users must be the account's too.
  'GET /api/v1/reports/meta': api({
    access: 'readReports',
    own: (ids) => ({ method: 'GET', url: '/api/v1/reports/meta', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/reports/meta', query: { accountId: other.accountId } }],
  }),
  'GET /api/v1/report/meta': api({
    access: 'readReports',
    own: (ids) => ({
      method: 'GET',
      url: '/api/v1/report/meta',
      query: { id: ids.reportId, accountId: ids.accountId },
    }),
    foreign: (own, other) =>
      foreignReportRefs(own, other).map((query) => ({ method: 'GET' as const, url: '/api/v1/report/meta', query })),
  }),
  'GET /api/v1/report': api({
    access: 'readReports',
    own: (ids) => ({ method: 'GET', url: '/api/v1/report', query: { id: ids.reportId, accountId: ids.accountId } }),
    foreign: (own, other) =>
      foreignReportRefs(own, other).map((query) => ({ method: 'GET' as const, url: '/api/v1/report', query })),
  }),
  'POST /api/v1/report': api({
    access: 'editReports',
    own: (ids) => ({ method: 'POST', url: '/api/v1/report', body: matrixReport(ids.accountId, ids.deviceId) }),
    foreign: (own, other) =>
      [
        matrixReport(other.accountId, other.deviceId),
        matrixReport(own.accountId, other.deviceId),
        matrixReport(other.accountId, own.deviceId),
        matrixReport(own.accountId, own.deviceId, other.groupId),
      ].map((body) => ({ method: 'POST' as const, url: '/api/v1/report', body })),
  }),
  'PUT /api/v1/report/meta': api({
    access: 'editReports',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/report/meta',
      body: { id: ids.reportId, accountId: ids.accountId, props: { name: 'Matrix renamed' } },
    }),
    foreign: (own, other) =>
      foreignReportRefs(own, other).map((ref) => ({
        method: 'PUT' as const,
        url: '/api/v1/report/meta',
        body: { ...ref, props: { name: 'Taken', visibility: 'PUBLIC' } },
      })),
  }),
  'DELETE /api/v1/report': api({
    access: 'editReports',
    own: (ids) => ({
      method: 'DELETE',
      url: '/api/v1/report',
      body: { id: ids.spareReportId, accountId: ids.accountId },
    }),
    foreign: (own, other) =>
      foreignReportRefs(own, other).map((body) => ({ method: 'DELETE' as const, url: '/api/v1/report', body })),
  }),
  'GET /api/v1/reports/schedules': api({
    access: 'readReportSchedules',
    own: (ids) => ({ method: 'GET', url: '/api/v1/reports/schedules', query: { accountId: ids.accountId } }),
    foreign: (_own, other) => [
      { method: 'GET', url: '/api/v1/reports/schedules', query: { accountId: other.accountId } },
    ],
  }),
  'POST /api/v1/reports/schedule': api({
    access: 'editReportSchedules',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/reports/schedule',
      body: matrixSchedule(ids.accountId, ids.deviceId),
    }),
    foreign: (own, other) =>
      [
        matrixSchedule(other.accountId, other.deviceId),
        matrixSchedule(own.accountId, other.deviceId),
        matrixSchedule(other.accountId, own.deviceId),
      ].map((body) => ({ method: 'POST' as const, url: '/api/v1/reports/schedule', body })),
  }),
  'PUT /api/v1/reports/schedule': api({
    access: 'editReportSchedules',
    own: (ids) => ({
      method: 'PUT',
      url: '/api/v1/reports/schedule',
      body: { id: ids.scheduleId, accountId: ids.accountId, props: { name: 'Matrix renamed', time: '06:30' } },
    }),
    foreign: (own, other) =>
      [
        { id: other.scheduleId, accountId: other.accountId },
        { id: other.scheduleId, accountId: own.accountId },
        { id: own.scheduleId, accountId: own.accountId, devices: [{ deviceId: other.deviceId, codes: ['c1'] }] },
      ].map(({ devices, ...ref }) => ({
        method: 'PUT' as const,
        url: '/api/v1/reports/schedule',
        body: { ...ref, props: { name: 'Taken', ...(devices && { devices }) } },
      })),
  }),
  'DELETE /api/v1/reports/schedule': api({
    access: 'editReportSchedules',
    own: (ids) => ({
      method: 'DELETE',
      url: '/api/v1/reports/schedule',
      body: { id: ids.spareScheduleId, accountId: ids.accountId },
    }),
    foreign: (own, other) =>
      [
        { id: other.scheduleId, accountId: other.accountId },
        { id: other.scheduleId, accountId: own.accountId },
      ].map((body) => ({ method: 'DELETE' as const, url: '/api/v1/reports/schedule', body })),
  }),

  // The alerts list names no entity: what it leaves out of scope is tested in alarms.test.ts.
  'GET /api/v1/alerts': api({
    access: 'signedIn',
    own: () => ({ method: 'GET', url: '/api/v1/alerts' }),
    foreign: () => [],
  }),

  // Brewing (features/brew).
  ...BREW_AUTHORIZATION,
};

/** An inventory query naming `groupOf`'s group and `accountOf`'s account. */
function inventoryQuery(groupOf: AccountIds, accountOf: AccountIds): Record<string, string> {
  return { groupId: groupOf.groupId, accountId: accountOf.accountId };
}

/** Another account's report named with its own account, and with ours. */
function foreignReportRefs(own: AccountIds, other: AccountIds): { id: string; accountId: string }[] {
  return [
    { id: other.reportId, accountId: other.accountId },
    { id: other.reportId, accountId: own.accountId },
  ];
}

/** What a report or schedule is made of; `sharedWith` names a group to share it with. */
function matrixTemplate(deviceId: string, sharedWith?: string) {
  const access = sharedWith
    ? { type: 'SELECTED_GROUPS_IN_SCOPE', groupIds: [sharedWith], users: [] }
    : { type: 'CREATOR_ONLY', groupIds: [], users: [] };
  return {
    format: 'CSV',
    visibility: access.type,
    access,
    notifyAudience: 'NOBODY',
    notifyUsers: [],
    devices: [{ deviceId, codes: ['c1'] }],
    interval: 'HOUR',
  };
}

function matrixReport(accountId: string, deviceId: string, sharedWith?: string) {
  const end = Date.now();
  return {
    accountId,
    name: 'Matrix report',
    props: { ...matrixTemplate(deviceId, sharedWith), start: end - 86_400_000, end },
  };
}

function matrixSchedule(accountId: string, deviceId: string) {
  return {
    accountId,
    name: 'Matrix schedule',
    props: {
      ...matrixTemplate(deviceId),
      frequency: 'WEEKLY',
      time: '07:00',
      dayOfWeek: 1,
      dayOfMonth: 1,
      timeZone: 'UTC',
      enabled: true,
    },
  };
}

function alarmConfig(deviceId: string): Record<string, unknown> {
  return {
    deviceId,
    code: 'c1',
    enabled: true,
    high: 50,
    low: null,
    hysteresis: 1,
    delaySeconds: 0,
    severity: 'MAJOR',
  };
}

/** Another account's scene named in every way a caller could try: its own, with our account, inside our group. */
function foreignScenePaths(own: AccountIds, other: AccountIds): { accountId: string; path: string }[] {
  return [
    { accountId: other.accountId, path: other.scenePath },
    { accountId: own.accountId, path: other.scenePath },
    { accountId: own.accountId, path: scenePath(own.groupId, other.sceneId) },
  ];
}

/** A new value widget for the scene of `sceneOf`, named with `accountOf`'s account id, showing a device's c1. */
function matrixWidget(accountOf: AccountIds, sceneOf: AccountIds, deviceId: string) {
  return {
    accountId: accountOf.accountId,
    groupId: sceneOf.groupId,
    sceneId: sceneOf.sceneId,
    type: 'value',
    name: 'Matrix value',
    doesInheritName: false,
    channels: [{ deviceId, code: 'c1' }],
    arcSegments: [],
    min: 0,
    max: 100,
    switchColors: false,
    activeColor: 'red',
    inactiveColor: 'grey',
    annotations: [],
    yAxis: [],
  };
}

function logsQuery(deviceId: string): Record<string, string> {
  return {
    format: 'GROUPED_BY_CHANNEL',
    deviceId,
    channels: 'c1',
    start: String(Date.now() - 3_600_000),
    end: String(Date.now()),
    binCount: '10',
  };
}
