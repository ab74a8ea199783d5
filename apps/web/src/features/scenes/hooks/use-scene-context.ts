import { useMemo } from 'react';
import { useSessionContext, type SessionContext } from '../../../lib/session/use-session-context';
import { indexDevices, type DeviceIndex } from '../model/resolve-channels';

export interface SceneContext extends SessionContext {
  devices: DeviceIndex;
}

/** The account tree (for devices and channel names) and the caller's permissions. */
export function useSceneContext():
  Exclude<ReturnType<typeof useSessionContext>, { status: 'ready' }> | ({ status: 'ready' } & SceneContext) {
  const context = useSessionContext();
  const accounts = context.status === 'ready' ? context.accounts : null;
  const devices = useMemo(() => indexDevices(accounts ?? []), [accounts]);
  return context.status === 'ready' ? { ...context, devices } : context;
}
