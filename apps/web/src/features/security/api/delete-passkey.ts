import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkAnswer } from '@fieldlink/api/errors';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';
import { PASSKEYS_KEY } from './get-passkeys';

export const deletePasskey = (id: string) => apiRequest<OkAnswer>('DELETE', '/user/passkeys', { query: { id } });

/** Removes one of the user's passkeys. */
export const useRemovePasskeyMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deletePasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY }),
  });
};
