import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTA_SUBMIT_PATH, type OtaSubmitAnswer, type OtaSubmitBody } from '@fieldlink/api/ota';
import { apiPost } from '../../../lib/api-client';
import { OTA_PENDING_QUERY_KEY } from './get-ota-pending';
import { OTA_ROLLOUTS_QUERY_KEY } from './get-ota-rollouts';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postOtaSubmit = (body: OtaSubmitBody) => apiPost<OtaSubmitAnswer>(OTA_SUBMIT_PATH, body);

/** `POST /devices/ota-submit`: the pending list and the device table change with it. */
export function useOtaSubmit() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postOtaSubmit,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: OTA_PENDING_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: OTA_ROLLOUTS_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['device-table'] });
      void queryClient.invalidateQueries({ queryKey: ['device'] });
    },
  });
}
