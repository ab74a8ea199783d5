import { useMutation } from '@tanstack/react-query';
import type { EmailResetCodeBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postEmailResetCode = (body: EmailResetCodeBody) =>
  apiPost<unknown>('/user/password/email-reset-code', body);

export const useEmailResetCodeMutation = () =>
  useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postEmailResetCode });
