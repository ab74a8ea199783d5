import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteGroupAnswer, DeleteGroupBody } from '@fieldlink/api/groups';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const deleteGroup = (body: DeleteGroupBody) => apiRequest<DeleteGroupAnswer>('DELETE', '/group', { body });

export const useDeleteGroupMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: deleteGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
