import { queryOptions, useQuery } from '@tanstack/react-query';
import type {
  AddSceneBody,
  DeleteByPathBody,
  GridLayoutBody,
  GridLayouts,
  PutWidgetBody,
  Scene,
  SceneOrderBody,
  UpdateSceneBody,
  Widget,
} from '@fieldlink/api/scenes';
import { apiGet, apiRequest } from '../../../lib/api-client';

// The scene and widget calls of application spec §7 "Scenes and widgets", and `GET /scenes` (ours).

export const getScenes = (accountId: string, groupId: string, signal?: AbortSignal) =>
  apiGet<Scene[]>('/scenes', { accountId, groupId }, signal);

export const scenesQueryKey = (accountId: string, groupId: string) => ['scenes', accountId, groupId] as const;

export const scenesQuery = (accountId: string, groupId: string) =>
  queryOptions({
    queryKey: scenesQueryKey(accountId, groupId),
    queryFn: ({ signal }) => getScenes(accountId, groupId, signal),
    staleTime: 30_000,
  });

export const useScenes = (accountId: string, groupId: string) => useQuery(scenesQuery(accountId, groupId));

export const postScene = (body: AddSceneBody) => apiRequest<Scene>('POST', '/scene', { body });
export const putScene = (body: UpdateSceneBody) => apiRequest<unknown>('PUT', '/scene', { body });
export const deleteScene = (body: DeleteByPathBody) => apiRequest<unknown>('DELETE', '/scene', { body });
export const putScenesOrder = (body: SceneOrderBody) => apiRequest<unknown>('PUT', '/scenes/order', { body });
export const postGridLayout = (body: GridLayoutBody) =>
  apiRequest<{ path: string; gridLayout: GridLayouts }>('POST', '/gridlayout', { body });
export const putWidget = (body: PutWidgetBody) => apiRequest<Widget>('PUT', '/widget', { body });
export const deleteWidget = (body: DeleteByPathBody) => apiRequest<unknown>('DELETE', '/widget', { body });
