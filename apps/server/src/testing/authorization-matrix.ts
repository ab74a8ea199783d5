import type { Capability } from '@fieldlink/domain/permissions';

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
}

export interface MatrixRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** One way of calling a route and who may make that call. */
export interface RouteUse {
  /** `signedIn`: any signed-in user; otherwise the capability the call needs (§6 table). */
  access: 'signedIn' | Capability;
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

/** Every route: `METHOD /path` as the route table lists it. */
export const AUTHORIZATION_MATRIX: Record<string, RouteRule> = {
  'POST /api/v1/signin': { kind: 'public', why: 'sign-in; rate limited (session tests)' },
  'POST /api/v1/user': { kind: 'public', why: 'sign-up with a mailed invitation code (session tests)' },
  'POST /api/v1/user/password': { kind: 'public', why: 'password reset with a mailed code (session tests)' },
  'POST /api/v1/user/password/email-reset-code': {
    kind: 'public',
    why: 'answers the same for every e-mail (session tests)',
  },
  'POST /api/v1/event-log': { kind: 'public', why: 'crash reports, before sign-in too; names no entity' },
  'GET /api/v1/client-config': { kind: 'public', why: 'public configuration of the web client' },
  'GET /api/v1/health': { kind: 'public', why: 'liveness' },
  'GET /api/v1/docs': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/*': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/json': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/yaml': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/static/index.html': { kind: 'public', why: 'API documentation' },
  'GET /api/v1/docs/static/swagger-initializer.js': { kind: 'public', why: 'API documentation' },
  'GET /*': { kind: 'public', why: 'the web console’s files' },
  'GET /': { kind: 'public', why: 'the web console’s files' },
  'GET /metrics': { kind: 'operator', why: 'Prometheus counters, no entity; METRICS_TOKEN guards it' },
  'GET /mqtt': { kind: 'device', why: 'MQTT over WebSocket: device credentials and topic ACL (broker tests)' },
  'GET /api/v1/realtime': { kind: 'socket', why: 'every action is tried in the matrix’s real-time part' },

  'POST /api/v1/signout': api({
    access: 'signedIn',
    own: () => ({ method: 'POST', url: '/api/v1/signout' }),
    foreign: () => [],
  }),
  'GET /api/v1/self': api({
    access: 'signedIn',
    own: () => ({ method: 'GET', url: '/api/v1/self' }),
    foreign: () => [],
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

  // Devices (features/devices).
  'GET /api/v1/device': api({
    access: 'signedIn',
    own: (ids) => ({ method: 'GET', url: '/api/v1/device', query: { id: ids.deviceId } }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/device', query: { id: other.deviceId } }],
  }),
  // The device table names no entity: what it leaves out of scope is tested in device-table.test.ts.
  'GET /api/v1/devices/table': api({
    access: 'signedIn',
    own: () => ({ method: 'GET', url: '/api/v1/devices/table' }),
    foreign: () => [],
  }),
  'POST /api/v1/device': api({
    access: 'addDevices',
    own: (ids) => ({ method: 'POST', url: '/api/v1/device', body: { name: 'Matrix device', groupId: ids.groupId } }),
    foreign: (_own, other) => [
      { method: 'POST', url: '/api/v1/device', body: { name: 'Planted', groupId: other.groupId } },
      { method: 'POST', url: '/api/v1/device', body: { name: 'Planted', accountId: other.accountId } },
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
    access: 'signedIn',
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
        access: 'signedIn',
        own: (ids) => ({ method: 'GET', url: '/api/v1/device/channels/latest-values', query: { ids: ids.deviceId } }),
        foreign: (_own, other) => [
          { method: 'GET', url: '/api/v1/device/channels/latest-values', query: { ids: other.deviceId } },
        ],
      },
    ],
  },
  'GET /api/v1/device-logs': api({
    access: 'signedIn',
    own: (ids) => ({ method: 'GET', url: '/api/v1/device-logs', query: logsQuery(ids.deviceId) }),
    foreign: (_own, other) => [{ method: 'GET', url: '/api/v1/device-logs', query: logsQuery(other.deviceId) }],
  }),
  'POST /api/v1/message': api({
    access: 'viewDashboard',
    own: (ids) => ({
      method: 'POST',
      url: '/api/v1/message',
      body: { deviceId: ids.deviceId, message: { cmd: 'system', command: 'FLASH LED' } },
    }),
    foreign: (_own, other) => [
      {
        method: 'POST',
        url: '/api/v1/message',
        body: { deviceId: other.deviceId, message: { cmd: 'writeChannel', code: 'sp1', value: 1 } },
      },
    ],
  }),
};

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
