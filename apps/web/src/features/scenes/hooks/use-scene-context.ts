import { useMemo } from 'react';
import type { Account } from '@fieldlink/api/account';
import type { PermissionSubject } from '@fieldlink/domain/permissions';
import { useAccount } from '../../../lib/api/get-account';
import { useSelf } from '../../../lib/api/get-self';
import { permissionSubject } from '../../../lib/session/permission-subject';
import { indexDevices, type DeviceIndex } from '../model/resolve-channels';

export interface SceneContext {
  accounts: readonly Account[];
  devices: DeviceIndex;
  /** Who is looking: permissions of the first attachment point (§6). */
  subject: PermissionSubject;
}

/** The account tree (for devices and channel names) and the caller's permissions. */
export function useSceneContext():
  | { status: 'pending' }
  | { status: 'error'; error: unknown; retry: () => void }
  | ({ status: 'ready' } & SceneContext) {
  const self = useSelf();
  const account = useAccount();
  const subject = useMemo(
    () => (self.data && account.data ? permissionSubject(self.data, account.data.accounts) : null),
    [self.data, account.data],
  );
  const devices = useMemo(() => indexDevices(account.data?.accounts ?? []), [account.data]);
  if (self.error || account.error) {
    return {
      status: 'error',
      error: self.error ?? account.error,
      retry: () => void Promise.all([self.refetch(), account.refetch()]),
    };
  }
  if (!self.data || !account.data || !subject) return { status: 'pending' };
  return { status: 'ready', accounts: account.data.accounts, devices, subject };
}
