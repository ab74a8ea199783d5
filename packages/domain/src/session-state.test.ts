import { describe, expect, it } from 'vitest';
import {
  INITIAL_SESSION,
  isSignedIn,
  nextSessionState,
  type AppStatus,
  type AuthState,
  type Presence,
  type SessionEvent,
  type SessionMachine,
} from './session-state';

const at = (
  status: AppStatus,
  auth: Partial<AuthState> = {},
  presence: Presence = 'FOREGROUND',
  failure: string | null = null,
): SessionMachine => ({
  status,
  presence,
  auth: { authenticated: false, error: null, message: null, ...auth },
  failure: failure === null ? null : { message: failure },
});
const signedIn = (status: AppStatus = 'IDLE') => at(status, { authenticated: true });

describe('nextSessionState: one transition per row (core §3, §4)', () => {
  it.each<{ name: string; from: SessionMachine; event: SessionEvent; to: SessionMachine }>([
    {
      name: 'start with a token: first run',
      from: INITIAL_SESSION,
      event: { type: 'START', hasToken: true },
      to: at('FIRST_RUN'),
    },
    {
      name: 'start without a token: signed out',
      from: INITIAL_SESSION,
      event: { type: 'START', hasToken: false },
      to: at('SIGNED_OUT'),
    },
    {
      name: 'a second start changes nothing',
      from: signedIn(),
      event: { type: 'START', hasToken: false },
      to: signedIn(),
    },
    { name: 'signing in', from: at('SIGNED_OUT'), event: { type: 'SIGN_IN' }, to: at('SIGNING_IN') },
    {
      name: 'a refused sign-in: signed out with the error',
      from: at('SIGNING_IN'),
      event: { type: 'AUTH_ERROR', error: 'Bad Login Info' },
      to: at('SIGNED_OUT', { error: 'Bad Login Info' }),
    },
    {
      name: 'signing in again keeps the error until the login',
      from: at('SIGNED_OUT', { error: 'Bad Login Info' }),
      event: { type: 'SIGN_IN' },
      to: at('SIGNING_IN', { error: 'Bad Login Info' }),
    },
    {
      name: 'first run reads the account',
      from: at('FIRST_RUN'),
      event: { type: 'READ_ACCOUNT' },
      to: at('READING_ACCOUNT'),
    },
    {
      name: 'login sets authenticated and clears the error',
      from: at('READING_ACCOUNT', { error: 'Bad Login Info' }),
      event: { type: 'LOGIN' },
      to: signedIn('IDLE'),
    },
    {
      name: 'login keeps a message to show',
      from: at('READING_ACCOUNT'),
      event: { type: 'LOGIN', message: 'Welcome back' },
      to: at('IDLE', { authenticated: true, message: 'Welcome back' }),
    },
    {
      name: 'an auth error while idle (a refused invitation) keeps the session',
      from: signedIn(),
      event: { type: 'AUTH_ERROR', error: 'User already exists' },
      to: at('IDLE', { authenticated: true, error: 'User already exists' }),
    },
    {
      name: 'a failed change (FETCH_POST_FAILURE) is recorded with its message; the session goes on',
      from: signedIn('READING_DEVICE'),
      event: { type: 'FETCH_POST_FAILURE', error: 'Server error' },
      to: at('READING_DEVICE', { authenticated: true }, 'FOREGROUND', 'Server error'),
    },
    {
      name: 'logout forgets the last failed change',
      from: at('SIGNING_OUT', { authenticated: true }, 'FOREGROUND', 'Server error'),
      event: { type: 'LOGOUT' },
      to: at('SIGNED_OUT'),
    },
    {
      name: 'reading a device',
      from: signedIn(),
      event: { type: 'BEGIN', activity: 'READING_DEVICE' },
      to: signedIn('READING_DEVICE'),
    },
    {
      name: 'selecting a device',
      from: signedIn(),
      event: { type: 'BEGIN', activity: 'SELECTING_DEVICE' },
      to: signedIn('SELECTING_DEVICE'),
    },
    {
      name: 'selecting a group',
      from: signedIn(),
      event: { type: 'BEGIN', activity: 'SELECTING_GROUP' },
      to: signedIn('SELECTING_GROUP'),
    },
    {
      name: 'updating device subscriptions while a device is read',
      from: signedIn('READING_DEVICE'),
      event: { type: 'BEGIN', activity: 'UPDATING_DEVICE_SUBSCRIPTIONS' },
      to: signedIn('UPDATING_DEVICE_SUBSCRIPTIONS'),
    },
    {
      name: 'the end of the running activity: idle',
      from: signedIn('UPDATING_DEVICE_SUBSCRIPTIONS'),
      event: { type: 'END', activity: 'UPDATING_DEVICE_SUBSCRIPTIONS' },
      to: signedIn('IDLE'),
    },
    {
      name: 'the end of an activity no longer running changes nothing',
      from: signedIn('UPDATING_DEVICE_SUBSCRIPTIONS'),
      event: { type: 'END', activity: 'READING_DEVICE' },
      to: signedIn('UPDATING_DEVICE_SUBSCRIPTIONS'),
    },
    {
      name: 'no activity while signed out',
      from: at('SIGNED_OUT'),
      event: { type: 'BEGIN', activity: 'READING_DEVICE' },
      to: at('SIGNED_OUT'),
    },
    {
      name: 'no activity while the account is read',
      from: at('READING_ACCOUNT'),
      event: { type: 'BEGIN', activity: 'SELECTING_GROUP' },
      to: at('READING_ACCOUNT'),
    },
    { name: 'signing out', from: signedIn('READING_DEVICE'), event: { type: 'SIGN_OUT' }, to: signedIn('SIGNING_OUT') },
    {
      name: 'no activity while signing out',
      from: signedIn('SIGNING_OUT'),
      event: { type: 'BEGIN', activity: 'READING_DEVICE' },
      to: signedIn('SIGNING_OUT'),
    },
    {
      name: 'logout clears the auth state',
      from: at('SIGNING_OUT', { authenticated: true, error: 'User already exists', message: 'Welcome back' }),
      event: { type: 'LOGOUT' },
      to: at('SIGNED_OUT'),
    },
    {
      name: 'a store reset wipes all state',
      from: at('UPDATING_DEVICE_SUBSCRIPTIONS', { authenticated: true, error: 'x', message: 'y' }, 'REFOCUSED'),
      event: { type: 'RESET' },
      to: INITIAL_SESSION,
    },
    {
      name: 'in background',
      from: signedIn(),
      event: { type: 'HIDDEN' },
      to: at('IDLE', { authenticated: true }, 'IN_BACKGROUND'),
    },
    {
      name: 'refocused',
      from: at('IDLE', { authenticated: true }, 'IN_BACKGROUND'),
      event: { type: 'SHOWN' },
      to: at('IDLE', { authenticated: true }, 'REFOCUSED'),
    },
    {
      name: 'shown without having been hidden: unchanged',
      from: signedIn(),
      event: { type: 'SHOWN' },
      to: signedIn(),
    },
    {
      name: 'in background again after a refocus',
      from: at('IDLE', { authenticated: true }, 'REFOCUSED'),
      event: { type: 'HIDDEN' },
      to: at('IDLE', { authenticated: true }, 'IN_BACKGROUND'),
    },
  ])('$name', ({ from, event, to }) => {
    expect(nextSessionState(from, event)).toEqual(to);
  });

  it('records each FETCH_POST_FAILURE as a failure of its own, the same text twice included', () => {
    const once = nextSessionState(at('IDLE'), { type: 'FETCH_POST_FAILURE', error: 'Server error' });
    const twice = nextSessionState(once, { type: 'FETCH_POST_FAILURE', error: 'Server error' });
    expect(twice.failure).toEqual(once.failure);
    expect(twice.failure).not.toBe(once.failure);
  });

  it('answers the same state for an event that does not apply', () => {
    const state = at('SIGNED_OUT');
    expect(nextSessionState(state, { type: 'BEGIN', activity: 'READING_DEVICE' })).toBe(state);
  });
});

describe('isSignedIn', () => {
  it.each<[SessionMachine, boolean]>([
    [signedIn('IDLE'), true],
    [signedIn('READING_DEVICE'), true],
    [signedIn('UPDATING_DEVICE_SUBSCRIPTIONS'), true],
    [signedIn('SIGNING_OUT'), false],
    [at('READING_ACCOUNT'), false],
    [at('IDLE'), false],
    [INITIAL_SESSION, false],
  ])('%j -> %s', (state, expected) => expect(isSignedIn(state)).toBe(expected));
});
