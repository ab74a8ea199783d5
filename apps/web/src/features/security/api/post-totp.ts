import { useMutation } from '@tanstack/react-query';
import type { TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postTotp = () => apiPost<TotpEnrolmentAnswer>('/user/mfa/totp');

/** Starts setting up an authenticator app: a new secret, not on until its first code. */
export const useStartTotpMutation = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postTotp });
