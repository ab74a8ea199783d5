import { deviceActionRefusal, type DeviceAction } from '@fieldlink/domain/device-actions';
import {
  can,
  type Capability,
  type ExtraFlag,
  type Permission,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';
import { appStore, type SessionState } from '../app-store/app-store';
import { useStore } from '../use-store';

/** The signed-in user as the domain's permission rules see them: permissions and extra flags. */
const subjectOf = (session: SessionState): PermissionSubject => ({
  permissions: session.permissions as Permission[],
  secretPermissions: session.flags as ExtraFlag[],
});

/** True when the signed-in user has this capability (§6 table; an administrator has every one). */
export function useCan(capability: Capability): boolean {
  return useStore(appStore, (state) => state.session.isAdmin || can(subjectOf(state.session), capability));
}

/**
 * Why the signed-in user may not take this action on a device (the domain's one table, which the
 * server checks too), or null when it may: the console disables the control and says why.
 */
export function useDeviceActionRefusal(action: DeviceAction): string | null {
  return useStore(appStore, (state) =>
    state.session.isAdmin ? null : deviceActionRefusal(subjectOf(state.session), action),
  );
}
