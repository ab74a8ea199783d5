import { useMutation } from '@tanstack/react-query';
import type { JwtAnswer, SignupBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postSignup = (body: SignupBody) => apiPost<JwtAnswer>('/user', body);

export const useSignupMutation = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postSignup });
