import { useMemo } from 'react';
import type { Account } from '@fieldlink/api/account';
import type { PermissionSubject } from '@fieldlink/domain/permissions';
import { useAccount } from '../api/get-account';
import { useSelf } from '../api/get-self';
import { permissionSubject } from './permission-subject';

export interface SessionContext {
  accounts: readonly Account[];
  /** Who is looking: permissions of the first attachment point (§6). */
  subject: PermissionSubject;
  email: string;
}

export type SessionContextState =
  | { status: 'pending' }
  | { status: 'error'; error: unknown; retry: () => void }
  | ({ status: 'ready' } & SessionContext);

/** The account tree and the caller's permissions, or the state of loading them. */
export function useSessionContext(): SessionContextState {
  const self = useSelf();
  const account = useAccount();
  const subject = useMemo(
    () => (self.data && account.data ? permissionSubject(self.data, account.data.accounts) : null),
    [self.data, account.data],
  );
  if (self.error || account.error) {
    return {
      status: 'error',
      error: self.error ?? account.error,
      retry: () => void Promise.all([self.refetch(), account.refetch()]),
    };
  }
  if (!self.data || !account.data || !subject) return { status: 'pending' };
  return { status: 'ready', accounts: account.data.accounts, subject, email: self.data.email };
}
