import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceConfigAnswer, DeviceConfigBody } from '@fieldlink/api/device';
import { apiPost } from '../../../lib/api-client';
import { deviceQueryKey } from '../../../lib/api/get-device';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postDeviceConfig = (body: DeviceConfigBody) => apiPost<DeviceConfigAnswer>('/device-config', body);

/**
 * Device-node Apply (core §7). The answer carries the device as stored: it replaces the cached one,
 * and the account tree (which shows device names) is read again.
 */
export function useDeviceConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postDeviceConfig,
    onSuccess: (answer) => {
      queryClient.setQueryData(deviceQueryKey(answer.device.id), answer.device);
      if (answer.device.name) void queryClient.invalidateQueries({ queryKey: ['account'] });
    },
  });
}
