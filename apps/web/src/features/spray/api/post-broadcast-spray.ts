import { useMutation } from '@tanstack/react-query';
import { BROADCAST_SPRAY_PATH, type BroadcastSprayAnswer, type BroadcastSprayBody } from '@fieldlink/api/spray';
import { apiPost } from '../../../lib/api-client';
import { OWN_FAILURE_REPORT } from '../../../lib/query-client';

export const postBroadcastSpray = (body: BroadcastSprayBody) =>
  apiPost<BroadcastSprayAnswer>(BROADCAST_SPRAY_PATH, body);

export const useBroadcastSpray = () => useMutation({ meta: OWN_FAILURE_REPORT, mutationFn: postBroadcastSpray });
