import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProvisionDeviceAnswer, ProvisionDeviceBody } from '@fieldlink/api/device';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const provisionDevice = (body: ProvisionDeviceBody) => apiPost<ProvisionDeviceAnswer>('/device', body);

/** `POST /device`: the account tree and the device table show the new device. */
export function useProvisionDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: provisionDevice,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['account'] }),
        queryClient.invalidateQueries({ queryKey: ['device-table'] }),
      ]),
  });
}
