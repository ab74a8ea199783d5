import type { DeviceAction } from '@fieldlink/domain/device-actions';
import type { Capability } from '@fieldlink/domain/permissions';
import { appStore } from '../app-store/app-store';
import { useStore } from '../use-store';
import { sessionCan, sessionDeviceActionRefusal, sessionMonitorOnlyRefusal } from './session-capabilities';

/** True when the signed-in user has this capability (§6 table; an administrator has every one). */
export function useCan(capability: Capability): boolean {
  return useStore(appStore, (state) => sessionCan(state.session, capability));
}

/**
 * Why the signed-in user may not take this action on a device (the domain's one table, which the
 * server checks too), or null when it may: the console disables the control and says why.
 */
export function useDeviceActionRefusal(action: DeviceAction): string | null {
  return useStore(appStore, (state) => sessionDeviceActionRefusal(state.session, action));
}

/**
 * The monitor-only refusal when that is the only reason the signed-in user lacks the capability
 * (show the control disabled, saying so), else null (allowed, or hidden for a missing permission).
 */
export function useMonitorOnlyRefusal(capability: Capability): string | null {
  return useStore(appStore, (state) => sessionMonitorOnlyRefusal(state.session, capability));
}
