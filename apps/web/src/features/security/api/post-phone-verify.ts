import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhoneAnswer, PhoneCodeBody } from '@fieldlink/api/phone';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { PHONE_KEY } from './get-phone';

export const postPhoneVerify = (body: PhoneCodeBody) => apiPost<PhoneAnswer>('/user/phone/verify', body);

/** Verifies the number with the code its SMS carried. */
export const useVerifyPhoneMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postPhoneVerify,
    onSuccess: (answer) => queryClient.setQueryData(PHONE_KEY, answer),
  });
};
