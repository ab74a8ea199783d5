import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { queryClient, setUnauthorizedHandler } from './query-client';

const refused = new ApiError(401, 'Your password was changed: please sign in again.', null);

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
