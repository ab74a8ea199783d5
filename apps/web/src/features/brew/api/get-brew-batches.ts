import { queryOptions, useQuery } from '@tanstack/react-query';
import { BREW_PATHS, type BrewBatchesAnswer } from '@fieldlink/api/brew';
import { apiGet } from '../../../lib/api-client';
import { BREW_KEY } from '../../../lib/api/get-brew-overview';

export const getBrewBatches = (groupId: string, signal?: AbortSignal) =>
  apiGet<BrewBatchesAnswer>(BREW_PATHS.batches, { groupId }, signal);

export const brewBatchesQuery = (groupId: string) =>
  queryOptions({
    queryKey: [...BREW_KEY, 'batches', groupId],
    queryFn: ({ signal }) => getBrewBatches(groupId, signal),
  });

/** The group's batches, newest first (finished ones with their reports). */
export const useBrewBatches = (groupId: string) => useQuery(brewBatchesQuery(groupId));
