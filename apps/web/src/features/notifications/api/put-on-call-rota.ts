import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OnCallRotaAnswer, OnCallRotaBody } from '@fieldlink/api/notifications';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { onCallRotaKey } from './get-on-call-rota';

export const putOnCallRota = ({ accountId, body }: { accountId: string; body: OnCallRotaBody }) =>
  apiRequest<OnCallRotaAnswer>('PUT', '/account/on-call-rota', { query: { accountId }, body });

/** Replaces an account's on-call rota (its administrators). */
export const usePutOnCallRotaMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: putOnCallRota,
    onSuccess: (answer) => queryClient.setQueryData(onCallRotaKey(answer.accountId), answer),
  });
};
