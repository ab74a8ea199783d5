import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AuditChoicesAnswer, AuditLogAnswer } from '@fieldlink/api/audit';
import { apiGet } from '../../../lib/api-client';
import type { AuditFilters } from '../model/audit-filters';

const AUDIT_LOG_KEY = ['audit-log'] as const;
/** Entries per page: "Load more" reads the next page. */
const AUDIT_PAGE_SIZE = 100;

export const getAuditLog = (
  accountId: string,
  filters: AuditFilters,
  cursor: string | undefined,
  limit: number,
  signal?: AbortSignal,
) => apiGet<AuditLogAnswer>('/audit-log', { accountId, ...filters, cursor, limit }, signal);

const auditLogQuery = (accountId: string, filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: [...AUDIT_LOG_KEY, accountId, filters],
    queryFn: ({ pageParam, signal }) => getAuditLog(accountId, filters, pageParam, AUDIT_PAGE_SIZE, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** An account's audit trail, newest first, a page at a time. */
export const useAuditLog = (accountId: string | null, filters: AuditFilters) =>
  useInfiniteQuery({ ...auditLogQuery(accountId ?? '', filters), enabled: accountId !== null });

/** Every user, token, job and device the account's trail names, for the filters. */
export const useAuditChoices = (accountId: string | null) =>
  useQuery({
    queryKey: [...AUDIT_LOG_KEY, accountId, 'choices'],
    queryFn: ({ signal }) => apiGet<AuditChoicesAnswer>('/audit-log/choices', { accountId: accountId ?? '' }, signal),
    enabled: accountId !== null,
  });
