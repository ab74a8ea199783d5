import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddGroupBody, GroupSummary } from '@fieldlink/api/groups';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postGroup = (body: AddGroupBody) => apiPost<GroupSummary>('/group', body);

export const useAddGroupMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
