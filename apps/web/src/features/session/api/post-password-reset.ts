import { useMutation } from '@tanstack/react-query';
import type { JwtAnswer, PasswordResetBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postPasswordReset = (body: PasswordResetBody) => apiPost<JwtAnswer>('/user/password', body);

export const usePasswordResetMutation = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postPasswordReset });
