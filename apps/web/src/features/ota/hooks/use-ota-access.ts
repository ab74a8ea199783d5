import { useMemo } from 'react';
import { can } from '@fieldlink/domain/permissions';
import { useAccount } from '../../../lib/api/get-account';
import { useSelf } from '../../../lib/api/get-self';
import { permissionSubject } from '../../../lib/session/permission-subject';

/** What the signed-in user may do with OTA updates (§6: OTA_UPDATE; only admins see and approve the pending list). */
export function useOtaAccess(): { canSubmit: boolean; isAdmin: boolean } {
  const self = useSelf().data;
  const accounts = useAccount().data?.accounts;
  return useMemo(() => {
    if (!self) return { canSubmit: false, isAdmin: false };
    const subject = permissionSubject(self, accounts ?? []);
    return { canSubmit: can(subject, 'submitOta'), isAdmin: can(subject, 'viewPendingOta') };
  }, [self, accounts]);
}
