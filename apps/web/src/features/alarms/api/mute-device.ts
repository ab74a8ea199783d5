import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceConfigAnswer } from '@fieldlink/api/device';
import { apiPost } from '../../../lib/api-client';
import { ALERTS_KEY } from './get-alerts';

/** Mutes or unmutes the caller's disconnection alerts of a device (core §6: anyone, for themselves). */
export const muteDevice = ({ deviceId, muted }: { deviceId: string; muted: boolean }) =>
  apiPost<DeviceConfigAnswer>('/device-config', { id: deviceId, props: { muteDisconnection: muted } });

export function useMuteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: muteDevice,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}
