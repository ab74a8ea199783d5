import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteGroupAnswer, DeleteGroupBody } from '@fieldlink/api/groups';
import { apiRequest } from '../../../lib/api-client';

export const deleteGroup = (body: DeleteGroupBody) => apiRequest<DeleteGroupAnswer>('DELETE', '/group', { body });

export const useDeleteGroupMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
