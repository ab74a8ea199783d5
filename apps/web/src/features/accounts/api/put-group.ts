import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupSummary, RenameGroupBody } from '@fieldlink/api/groups';
import { apiRequest } from '../../../lib/api-client';

export const putGroup = (body: RenameGroupBody) => apiRequest<GroupSummary>('PUT', '/group', { body });

export const useRenameGroupMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: putGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
