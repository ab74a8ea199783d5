import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device, DeleteDeviceTagBody, DeviceTagBody, DeviceTagsAnswer } from '@fieldlink/api/device';
import { apiRequest } from '../api-client';
import { deviceQueryKey } from './get-device';
import { OWN_FAILURE_REPORT } from '../query-client';

export const putDeviceTag = (body: DeviceTagBody) => apiRequest<DeviceTagsAnswer>('PUT', '/device/tag', { body });
export const deleteDeviceTag = (body: DeleteDeviceTagBody) =>
  apiRequest<DeviceTagsAnswer>('DELETE', '/device/tag', { body });

/** Tag changes write the answered tags into the cached device. */
export function useDeviceTags(deviceId: string) {
  const queryClient = useQueryClient();
  const store = (answer: DeviceTagsAnswer) =>
    queryClient.setQueryData<Device>(deviceQueryKey(deviceId), (device) => device && { ...device, tags: answer.tags });
  return {
    save: useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: putDeviceTag, onSuccess: store }),
    remove: useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: deleteDeviceTag, onSuccess: store }),
  };
}
