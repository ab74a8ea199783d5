// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_STORAGE_KEY } from '@fieldlink/api/first-calls';
import { forgetHeldAnswers, HeldAnswer } from './held-answer';

/** Each call made: its path, the tag it asked with and its cache mode. */
const calls: { path: string; ifNoneMatch: string | null; cache: RequestCache | undefined }[] = [];

beforeEach(() => {
  calls.length = 0;
  localStorage.setItem(TOKEN_STORAGE_KEY, 'token-1');
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://console.test').pathname;
    const ifNoneMatch = new Headers(init?.headers).get('if-none-match');
    calls.push({ path, ifNoneMatch, cache: init?.cache });
    const etag = `"${path}-1"`;
    if (ifNoneMatch === etag) return new Response(null, { status: 304, headers: { etag } });
    return new Response(JSON.stringify({ path }), { status: 200, headers: { etag } });
  });
});
afterEach(() => {
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  vi.unstubAllGlobals();
});

const json = async (response: Response) => (await response.json()) as { path: string };

describe('an answer held for revalidation', () => {
  it('is asked for with its tag past the browser cache, and a 304 keeps the same object', async () => {
    const answer = new HeldAnswer('/big', {}, json, 'no-cache');
    const first = await answer.get();
    expect(calls[0]).toMatchObject({ ifNoneMatch: null, cache: 'no-cache' });
    expect(await answer.get()).toBe(first);
    expect(calls[1]).toMatchObject({ ifNoneMatch: '"/api/v1/big-1"', cache: 'no-store' });
  });

  it('is every one forgotten when a session ends', async () => {
    const tree = new HeldAnswer('/tree', {}, json);
    const table = new HeldAnswer('/table', {}, json);
    await tree.get();
    await table.get();
    forgetHeldAnswers();
    await tree.get();
    await table.get();
    expect(calls.slice(2).map((call) => call.ifNoneMatch)).toEqual([null, null]);
  });
});
