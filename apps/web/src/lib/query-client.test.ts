import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { OWN_FAILURE_REPORT, queryClient, setChangeFailureHandler, setUnauthorizedHandler } from './query-client';

const refused = new ApiError(401, 'Please sign in again.', {
  statusCode: 401,
  error: 'Unauthorized',
  message: 'Please sign in again.',
  sessionEnded: true,
});

describe('AUTH_ERROR: a 401 of any call reaches the sign-out handler with the server’s answer', () => {
  it.each([
    [
      'a query',
      () => queryClient.fetchQuery({ queryKey: ['auth-test'], queryFn: () => Promise.reject(refused), retry: false }),
    ],
    [
      'a change',
      () =>
        queryClient
          .getMutationCache()
          .build(queryClient, { mutationFn: () => Promise.reject(refused) })
          .execute(undefined),
    ],
  ])('%s', async (_kind, call) => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    await expect(call()).rejects.toBe(refused);
    expect(handler).toHaveBeenCalledWith(refused);
  });

  // Issue 35: broadcast spray answers 401 without its permission (§6); that refusal keeps the session.
  it('leaves a 401 that the server does not mark as the session’s end to its caller', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const sprayRefusal = new ApiError(401, 'You do not have permission to broadcast spray.', {
      statusCode: 401,
      error: 'Unauthorized',
      message: 'You do not have permission to broadcast spray.',
    });
    const change = queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: () => Promise.reject(sprayRefusal), onError: () => undefined })
      .execute(undefined);
    await expect(change).rejects.toBe(sprayRefusal);
    expect(handler).not.toHaveBeenCalled();
  });

  it('leaves other failures to their callers', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const forbidden = new ApiError(403, 'No.', null);
    await expect(
      queryClient.fetchQuery({ queryKey: ['auth-test-403'], queryFn: () => Promise.reject(forbidden), retry: false }),
    ).rejects.toBe(forbidden);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe('FETCH_POST_FAILURE: a failed change goes to the shared handler unless it reports the failure itself', () => {
  const failed = new ApiError(500, 'The database is busy.', null);
  const change = (options: { meta?: Record<string, unknown>; onError?: () => void }, error: ApiError = failed) =>
    queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: () => Promise.reject(error), ...options })
      .execute(undefined);

  it.each([
    ['a change with no failure report of its own', {}, true],
    ['a change marked as reporting its own failure', { meta: OWN_FAILURE_REPORT }, false],
    ['a change with its own onError', { onError: () => undefined }, false],
  ])('%s', async (_kind, options, shared) => {
    const handler = vi.fn();
    setChangeFailureHandler(handler);
    await expect(change(options)).rejects.toBe(failed);
    expect(handler.mock.calls).toEqual(shared ? [[failed]] : []);
  });

  it('sends a 401 to the sign-out handler only', async () => {
    const failure = vi.fn();
    const signOut = vi.fn();
    setChangeFailureHandler(failure);
    setUnauthorizedHandler(signOut);
    await expect(change({}, refused)).rejects.toBe(refused);
    expect(signOut).toHaveBeenCalledWith(refused);
    expect(failure).not.toHaveBeenCalled();
  });

  it('leaves a failed query to the page that shows it', async () => {
    const handler = vi.fn();
    setChangeFailureHandler(handler);
    await expect(
      queryClient.fetchQuery({ queryKey: ['change-test-query'], queryFn: () => Promise.reject(failed), retry: false }),
    ).rejects.toBe(failed);
    expect(handler).not.toHaveBeenCalled();
  });
});
