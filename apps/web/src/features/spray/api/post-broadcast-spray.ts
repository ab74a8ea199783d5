import { useMutation } from '@tanstack/react-query';
import { BROADCAST_SPRAY_PATH, type BroadcastSprayAnswer, type BroadcastSprayBody } from '@fieldlink/api/spray';
import { apiPost } from '../../../lib/api-client';

export const postBroadcastSpray = (body: BroadcastSprayBody) =>
  apiPost<BroadcastSprayAnswer>(BROADCAST_SPRAY_PATH, body);

export const useBroadcastSpray = () => useMutation({ mutationFn: postBroadcastSpray });
