import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupSummary, RenameGroupBody } from '@fieldlink/api/groups';
import { apiRequest } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const putGroup = (body: RenameGroupBody) => apiRequest<GroupSummary>('PUT', '/group', { body });

export const useRenameGroupMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: putGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
