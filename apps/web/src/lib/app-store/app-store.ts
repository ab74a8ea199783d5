import {
  INITIAL_SESSION,
  nextSessionState,
  type SessionEvent,
  type SessionMachine,
} from '@fieldlink/domain/session-state';
import type { ClockPreferences } from '@fieldlink/domain/date-format';
import type { AppType, NavSection, NavTab, ThemeName, VariantAccount } from '@fieldlink/domain/app-variant';
import { createStore } from '../create-store';
import { readStoredTheme, storeTheme } from '../themes/theme-storage';
import {
  EMPTY_TOAST_QUEUE,
  TOAST_DURATION_MS,
  dismissToast,
  enqueueToast,
  type ToastKind,
  type ToastQueue,
} from './toast-queue';

/**
 * App-wide UI state (STYLE.md "State in the browser"): session and its state machine, overlay, remembered path,
 * sub-tab selections and toasts. Server data stays in TanStack Query and live device values in the
 * real-time store; this holds only what the shell itself needs.
 */

/** The signed-in user as the shell shows it; what the app is doing is in `machine`. */
export interface SessionState {
  email: string | null;
  displayName: string | null;
  /** Effective permissions of the first attachment point (ADMIN already expanded). */
  permissions: readonly string[];
  /** Extra flags of the same attachment point. */
  flags: readonly string[];
  canViewDash: boolean;
  isAdmin: boolean;
  /** Sees every value and chart but operates nothing (issue 35): binds administrators too. */
  monitorOnly: boolean;
  /** The app the user gets (the domain's variant rule). */
  appType: AppType;
  /** The account of the first attachment point: app type, kind, brand theme, user variant. */
  account: VariantAccount | null;
  /** The user's clock choices (issue 36 item 2); each null: this browser's zone or locale. */
  clock: ClockPreferences;
}

export interface AppState {
  session: SessionState;
  /** The session and app states of §3 and the auth state, changed only by `dispatchSession`. */
  machine: SessionMachine;
  /** Messages of the loading overlays now open; the overlay shows the latest. */
  overlays: readonly { id: number; message: string }[];
  /** Path to open once /loading has read the account (§2 start-up routing). */
  rememberedPath: string | null;
  /** The sub-tab last open in each section (§2: kept separately per section). */
  subTabs: Readonly<Record<NavSection, NavTab | null>>;
  toasts: ToastQueue;
  /** The theme chosen in the user menu (local storage `theme`); the page may still override it. */
  storedTheme: string | null;
}

export const SIGNED_OUT_SESSION: SessionState = {
  email: null,
  displayName: null,
  permissions: [],
  flags: [],
  canViewDash: false,
  isAdmin: false,
  monitorOnly: false,
  appType: 'default',
  account: null,
  clock: { timeZone: null, hourCycle: null, dateOrder: null },
};

const initialState = (storedTheme: string | null): AppState => ({
  session: SIGNED_OUT_SESSION,
  machine: INITIAL_SESSION,
  overlays: [],
  rememberedPath: null,
  subTabs: { dashboard: null, accounts: null, reports: null, alarms: null },
  toasts: EMPTY_TOAST_QUEUE,
  storedTheme,
});

export const appStore = createStore<AppState>(initialState(readStoredTheme()));

let nextId = 1;

export function showToast(kind: ToastKind, message: string, durationMs = TOAST_DURATION_MS): void {
  const toast = { id: nextId++, kind, message, durationMs };
  appStore.setState((s) => ({ ...s, toasts: enqueueToast(s.toasts, toast) }));
}

export function closeToast(id: number): void {
  appStore.setState((s) => ({ ...s, toasts: dismissToast(s.toasts, id) }));
}

/** Opens a loading overlay; call the returned function to close it. Overlays may nest. */
export function openOverlay(message: string): () => void {
  const id = nextId++;
  appStore.setState((s) => ({ ...s, overlays: [...s.overlays, { id, message }] }));
  return () => appStore.setState((s) => ({ ...s, overlays: s.overlays.filter((o) => o.id !== id) }));
}

/** One transition of the session state machine (domain `session-state.ts`). */
export function dispatchSession(event: SessionEvent): void {
  appStore.setState((s) => {
    const machine = nextSessionState(s.machine, event);
    return machine === s.machine ? s : { ...s, machine };
  });
}

/**
 * The shared handler's report of a failed change (§8 FETCH_POST_FAILURE): the session machine records
 * it, and the failure it recorded is shown as an error toast.
 */
export function reportChangeFailure(message: string): void {
  dispatchSession({ type: 'FETCH_POST_FAILURE', error: message });
  const { failure } = appStore.getState().machine;
  if (failure) showToast('error', failure.message);
}

export function setSession(session: SessionState): void {
  appStore.setState((s) => ({ ...s, session }));
}

/** The user's clock choices changed (the user menu), at once on every screen. */
export function setClockPreferences(clock: ClockPreferences): void {
  appStore.setState((s) => ({ ...s, session: { ...s.session, clock } }));
}

export function setRememberedPath(path: string | null): void {
  appStore.setState((s) => ({ ...s, rememberedPath: path }));
}

export function setSubTab(section: NavSection, tab: NavTab): void {
  appStore.setState((s) => (s.subTabs[section] === tab ? s : { ...s, subTabs: { ...s.subTabs, [section]: tab } }));
}

export function chooseStoredTheme(theme: ThemeName): void {
  storeTheme(theme);
  appStore.setState((s) => ({ ...s, storedTheme: theme }));
}

/**
 * Store reset on sign-out (§4): wipes all state, the session machine included, but keeps toasts, so a
 * sign-out message still shows, and the theme, which belongs to the browser rather than the session.
 */
export function resetAppStore(): void {
  appStore.setState((s) => ({ ...initialState(s.storedTheme), toasts: s.toasts }));
}
