import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhoneAnswer, PhoneBody } from '@fieldlink/api/phone';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { PHONE_KEY } from './get-phone';

export const putPhone = (body: PhoneBody) => apiRequest<PhoneAnswer>('PUT', '/user/phone', { body });

/** Sends a code by SMS to the number; the answer shows it waiting for that code. */
export const useSendPhoneCodeMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: putPhone,
    onSuccess: (answer) => queryClient.setQueryData(PHONE_KEY, answer),
  });
};
