import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhoneAnswer } from '@fieldlink/api/phone';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { PHONE_KEY } from './get-phone';

export const deletePhone = () => apiRequest<PhoneAnswer>('DELETE', '/user/phone');

/** Removes the phone (or the number waiting for its code): no more SMS alerts. */
export const useRemovePhoneMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deletePhone,
    onSuccess: (answer) => queryClient.setQueryData(PHONE_KEY, answer),
  });
};
