import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MoveAnswer, MoveBody } from '@fieldlink/api/groups';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postMove = (body: MoveBody) => apiPost<MoveAnswer>('/move', body);

/**
 * `POST /move`. The specification gives the move no error handling (§4, §8): a failure shows no
 * message; the tree is read again either way, so it shows where things really are.
 */
export const useMoveMutation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    meta: OWN_FAILURE_REPORT,
    mutationFn: postMove,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
};
