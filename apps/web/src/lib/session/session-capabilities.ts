import { deviceActionRefusal, type DeviceAction } from '@fieldlink/domain/device-actions';
import {
  can,
  type Capability,
  type ExtraFlag,
  type Permission,
  type PermissionSubject,
} from '@fieldlink/domain/permissions';
import type { SessionState } from '../app-store/app-store';

/** The signed-in user as the domain's permission rules see them: permissions and extra flags. */
const subjectOf = (session: SessionState): PermissionSubject => ({
  permissions: session.permissions as Permission[],
  secretPermissions: session.flags as ExtraFlag[],
});

/**
 * True when the session's user has this capability (§6 table; an administrator has every one):
 * those a permission grants (END_BREW, EDIT_BREW_INFO …) and those an extra flag grants (BREW_DELETE,
 * BREW_CALIB_CO2_TOTAL_GAIN, OTA_UPDATE …) alike.
 */
export function sessionCan(session: SessionState, capability: Capability): boolean {
  return session.isAdmin || can(subjectOf(session), capability);
}

/** Why the session's user may not take this action on a device (the domain's one table), or null. */
export function sessionDeviceActionRefusal(session: SessionState, action: DeviceAction): string | null {
  return session.isAdmin ? null : deviceActionRefusal(subjectOf(session), action);
}
