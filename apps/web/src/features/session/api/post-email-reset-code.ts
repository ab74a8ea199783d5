import { useMutation } from '@tanstack/react-query';
import type { EmailResetCodeBody } from '@fieldlink/api/session';
import { apiPost } from '../../../lib/api-client';

export const postEmailResetCode = (body: EmailResetCodeBody) =>
  apiPost<unknown>('/user/password/email-reset-code', body);

export const useEmailResetCodeMutation = () => useMutation({ mutationFn: postEmailResetCode });
