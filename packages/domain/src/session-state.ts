/**
 * The session and app states of core §3 and the transitions of §4, as one state machine: what the
 * app is doing (`status`), whether its page is in the background (`presence`) and the auth state
 * {authenticated, error, message}. The web app keeps one of these and changes it only through
 * `nextSessionState`.
 */

/** What the app is doing; null before start-up has looked at the stored token (§3's "null"). */
export type AppStatus =
  | null
  | 'FIRST_RUN'
  | 'SIGNING_IN'
  | 'READING_ACCOUNT'
  | 'READING_DEVICE'
  | 'SELECTING_DEVICE'
  | 'UPDATING_DEVICE_SUBSCRIPTIONS'
  | 'SELECTING_GROUP'
  | 'IDLE'
  | 'SIGNING_OUT'
  | 'SIGNED_OUT';

/** Work a signed-in app does for a while and then returns to IDLE from. */
export type SessionActivity =
  'READING_DEVICE' | 'SELECTING_DEVICE' | 'UPDATING_DEVICE_SUBSCRIPTIONS' | 'SELECTING_GROUP';

/** The page: shown, hidden (`in background`), or shown again after being hidden (`refocused`). */
export type Presence = 'FOREGROUND' | 'IN_BACKGROUND' | 'REFOCUSED';

export interface AuthState {
  authenticated: boolean;
  error: string | null;
  message: string | null;
}

/** A change the server refused or never answered, with the text the shared handler shows. */
export interface ChangeFailure {
  message: string;
}

export interface SessionMachine {
  status: AppStatus;
  presence: Presence;
  auth: AuthState;
  /**
   * The last failed change reported to the shared handler (§8 FETCH_POST_FAILURE); a new object per
   * failure, so the same text twice is two failures.
   */
  failure: ChangeFailure | null;
}

export const INITIAL_AUTH: AuthState = { authenticated: false, error: null, message: null };
export const INITIAL_SESSION: SessionMachine = {
  status: null,
  presence: 'FOREGROUND',
  auth: INITIAL_AUTH,
  failure: null,
};

export type SessionEvent =
  /** Start-up: with a stored token the first run reads the account; without one, signed out. */
  | { type: 'START'; hasToken: boolean }
  | { type: 'SIGN_IN' }
  | { type: 'READ_ACCOUNT' }
  /** The account is read: authenticated, the error cleared (§4 "Login"). */
  | { type: 'LOGIN'; message?: string | null }
  /** A refused sign-in, or a failure the spec reports as an auth error (an invitation's `.error`). */
  | { type: 'AUTH_ERROR'; error: string }
  /** A change failed and does not report it itself (§8): recorded for the shared handler's toast. */
  | { type: 'FETCH_POST_FAILURE'; error: string }
  | { type: 'BEGIN'; activity: SessionActivity }
  | { type: 'END'; activity: SessionActivity }
  | { type: 'SIGN_OUT' }
  /** Signed out: the auth state cleared (§4 "logout clears it"). */
  | { type: 'LOGOUT' }
  /** §4 "a store reset wipes all state". */
  | { type: 'RESET' }
  | { type: 'HIDDEN' }
  | { type: 'SHOWN' };

const SIGNED_IN: ReadonlySet<AppStatus> = new Set<AppStatus>([
  'IDLE',
  'READING_DEVICE',
  'SELECTING_DEVICE',
  'UPDATING_DEVICE_SUBSCRIPTIONS',
  'SELECTING_GROUP',
]);

/** Whether the app holds a read account: idle, or busy with something that returns to idle. */
export const isSignedIn = (state: SessionMachine): boolean => state.auth.authenticated && SIGNED_IN.has(state.status);

/**
 * The next state. Events that do not apply where the machine is change nothing (the same object is
 * answered): an activity while signed out, an END of an activity no longer running, a second START.
 */
export function nextSessionState(state: SessionMachine, event: SessionEvent): SessionMachine {
  switch (event.type) {
    case 'START':
      return state.status === null ? { ...state, status: event.hasToken ? 'FIRST_RUN' : 'SIGNED_OUT' } : state;
    case 'SIGN_IN':
      return { ...state, status: 'SIGNING_IN' };
    case 'READ_ACCOUNT':
      return { ...state, status: 'READING_ACCOUNT' };
    case 'LOGIN':
      return { ...state, status: 'IDLE', auth: { authenticated: true, error: null, message: event.message ?? null } };
    case 'AUTH_ERROR':
      return {
        ...state,
        status: state.status === 'SIGNING_IN' ? 'SIGNED_OUT' : state.status,
        auth: { ...state.auth, error: event.error },
      };
    case 'FETCH_POST_FAILURE':
      return { ...state, failure: { message: event.error } };
    case 'BEGIN':
      return SIGNED_IN.has(state.status) && state.status !== event.activity
        ? { ...state, status: event.activity }
        : state;
    case 'END':
      return state.status === event.activity ? { ...state, status: 'IDLE' } : state;
    case 'SIGN_OUT':
      return { ...state, status: 'SIGNING_OUT' };
    case 'LOGOUT':
      return { ...state, status: 'SIGNED_OUT', auth: INITIAL_AUTH, failure: null };
    case 'RESET':
      return INITIAL_SESSION;
    case 'HIDDEN':
      return state.presence === 'IN_BACKGROUND' ? state : { ...state, presence: 'IN_BACKGROUND' };
    case 'SHOWN':
      return state.presence === 'IN_BACKGROUND' ? { ...state, presence: 'REFOCUSED' } : state;
  }
}
