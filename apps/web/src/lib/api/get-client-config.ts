import { queryOptions, useQuery } from '@tanstack/react-query';
import { CLIENT_VERSION, type ClientConfig } from '@fieldlink/api/session';
import { apiGet } from '../api-client';

/** What the console shows before the configuration arrives, or when it cannot be read. */
export const FALLBACK_CLIENT_CONFIG: ClientConfig = {
  productName: 'Fieldlink',
  clientVersion: CLIENT_VERSION,
  defaultTheme: 'DEFAULT',
  mapTileUrl: null,
  mapKey: null,
  geocoderUrl: null,
  pushPublicKey: null,
  sms: false,
};

export const getClientConfig = (signal?: AbortSignal) => apiGet<ClientConfig>('/client-config', undefined, signal);

export const clientConfigQuery = () =>
  queryOptions({
    queryKey: ['client-config'],
    queryFn: ({ signal }) => getClientConfig(signal),
    staleTime: Infinity,
    retry: 1,
  });

/** The public configuration; the fallback until it is read (the console works without it). */
export function useClientConfig(): ClientConfig {
  const { data } = useQuery(clientConfigQuery());
  return data ?? FALLBACK_CLIENT_CONFIG;
}
