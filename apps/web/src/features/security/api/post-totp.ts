import { useMutation } from '@tanstack/react-query';
import type { TotpEnrolmentAnswer } from '@fieldlink/api/mfa';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

/** With `enrolmentToken`: the set-up a sign-in asked for, before there is a session (issue 38). */
export const postTotp = (enrolmentToken?: string) =>
  apiRequest<TotpEnrolmentAnswer>('POST', '/user/mfa/totp', { token: enrolmentToken });

/** Starts setting up an authenticator app: a new secret, not on until its first code. */
export const useStartTotpMutation = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postTotp });
