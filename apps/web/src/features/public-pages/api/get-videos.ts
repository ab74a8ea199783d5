import { queryOptions } from '@tanstack/react-query';
import type { VideosAnswer } from '@fieldlink/api/videos';
import { apiGet } from '../../../lib/api-client';

/** The video library of `/videos/*` (public: no sign-in needed). */
export const videosQuery = () =>
  queryOptions({
    queryKey: ['videos'],
    queryFn: ({ signal }) => apiGet<VideosAnswer>('/videos', undefined, signal),
    staleTime: 60_000,
  });
