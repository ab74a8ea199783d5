import { can, type Capability, type Permission } from '@fieldlink/domain/permissions';
import { appStore } from '../app-store/app-store';
import { useStore } from '../use-store';

/** True when the signed-in user has this capability (§6 table; an administrator has every one). */
export function useCan(capability: Capability): boolean {
  return useStore(
    appStore,
    (state) => state.session.isAdmin || can({ permissions: state.session.permissions as Permission[] }, capability),
  );
}
