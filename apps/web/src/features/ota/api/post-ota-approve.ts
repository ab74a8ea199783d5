import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTA_APPROVE_PATH, type OtaApproveAnswer, type OtaApproveBody } from '@fieldlink/api/ota';
import { apiPost } from '../../../lib/api-client';
import { OTA_PENDING_QUERY_KEY } from './get-ota-pending';
import { OTA_ROLLOUTS_QUERY_KEY } from './get-ota-rollouts';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postOtaApprove = (body: OtaApproveBody) => apiPost<OtaApproveAnswer>(OTA_APPROVE_PATH, body);

/** `POST /devices/ota-approve` (administrators). */
export function useOtaApprove() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postOtaApprove,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: OTA_ROLLOUTS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['device-table'] });
      void queryClient.invalidateQueries({ queryKey: ['device'] });
    },
  });
}
