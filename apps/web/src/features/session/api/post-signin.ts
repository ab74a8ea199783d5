import { useMutation } from '@tanstack/react-query';
import type { JwtAnswer, SigninBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postSignin = (body: SigninBody) => apiPost<JwtAnswer>('/signin', body);

export const useSigninMutation = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postSignin });
