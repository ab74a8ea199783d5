import { dispatchSession, resetAppStore } from '../app-store/app-store';
import { endDemo } from '../demo/demo-session';
import { forgetLastValues } from '../offline/last-values';
import { forgetHeldAnswers } from '../held-answer';
import { queryClient } from '../query-client';
import { stopRealtime } from '../realtime/realtime-connection';
import { clearToken } from '../session-token';

/**
 * Ends the session in this tab: closes the real-time socket, forgets the user's last values kept for
 * an offline start, forgets the token (and ends a demo), drops every cached
 * answer (the account tree and device table held for revalidation too) and resets the app store (specification §4: "a store reset wipes all state"), then logs out
 * (the session machine signed out, its auth state cleared). The caller
 * navigates; a protected page left on screen sends itself to /signin once the token is gone.
 */
export function endSession(): void {
  stopRealtime();
  forgetLastValues();
  clearToken();
  endDemo();
  queryClient.clear();
  forgetHeldAnswers();
  resetAppStore();
  dispatchSession({ type: 'LOGOUT' });
}
