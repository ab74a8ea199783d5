import { useSessionContext, type SessionContextState } from '../../../lib/session/use-session-context';

/** The account tree and the caller's permissions, or the state of loading them. */
export function useAccountsContext(): SessionContextState {
  return useSessionContext();
}
