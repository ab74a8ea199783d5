// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { encodeAccountColumns } from '@fieldlink/api/account-columns';
import { ACCOUNT_PATH, TOKEN_STORAGE_KEY } from '@fieldlink/api/first-calls';
import { queryClient } from '../query-client';
import { breakRealtime, AnsweringSocket, openRealtime, resetSentRequests } from '../realtime/fixtures';
import { realtimeStore } from '../realtime/realtime-store';
import { stopRealtime } from '../realtime/realtime-connection';
import { treeAccount, treeDevice, treeGroup } from '../tree-fixtures';
import { endSession } from '../session/end-session';
import { accountQuery } from './get-account';

/** The server's tree: each device's connection flag, and the tag of that content. */
const stored = new Map<string, boolean>();
let version = 1;
const etag = () => `"tree-${version}"`;

/** Each tree call the console made: the tag it asked with, its cache mode, and what it was answered. */
const calls: {
  ifNoneMatch: string | null;
  authorization: string | null;
  cache: RequestCache | undefined;
  status: number;
}[] = [];

function answerTree(init: RequestInit | undefined): Response {
  const headers = new Headers(init?.headers);
  const ifNoneMatch = headers.get('if-none-match');
  const status = ifNoneMatch === etag() ? 304 : 200;
  calls.push({ ifNoneMatch, authorization: headers.get('authorization'), cache: init?.cache, status });
  if (status === 304) return new Response(null, { status, headers: { etag: etag() } });
  const devices = [...stored].map(([thingName, isConnected]) => treeDevice(thingName, { isConnected }));
  const answer = { accounts: [treeAccount(treeGroup('root', { kind: 'root', devices }))] };
  return new Response(JSON.stringify(encodeAccountColumns(answer)), {
    status,
    headers: { 'content-type': 'application/json', etag: etag(), 'cache-control': 'private, no-cache' },
  });
}

/** The shell's account tree (an active query, as the shell keeps it). */
function showTree() {
  const observer = new QueryObserver(queryClient, accountQuery());
  const stop = observer.subscribe(() => {});
  return { stop, data: () => observer.getCurrentResult().data };
}

async function reconnect(count: number): Promise<void> {
  await breakRealtime();
  await vi.waitFor(() => expect(realtimeStore.getState().connectionCount).toBe(count));
}

beforeEach(async () => {
  stored.clear();
  calls.length = 0;
  version = 1;
  localStorage.setItem(TOKEN_STORAGE_KEY, 'token-1');
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (new URL(url, 'http://console.test').pathname.endsWith(ACCOUNT_PATH)) return answerTree(init);
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
  });
  await openRealtime();
});
afterEach(() => {
  stopRealtime();
  queryClient.clear();
  localStorage.removeItem(TOKEN_STORAGE_KEY);
  vi.unstubAllGlobals();
});

describe('the account tree after a real-time reconnect', () => {
  it('is revalidated with its ETag, not downloaded again, while it has not changed', async () => {
    stored.set('PUMP_1', true);
    const tree = showTree();
    await vi.waitFor(() => expect(tree.data()?.accounts).toHaveLength(1));
    const first = tree.data();
    expect(calls).toEqual([{ ifNoneMatch: null, authorization: 'token-1', cache: undefined, status: 200 }]);

    await reconnect(2);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    // Asked with the tag of the tree it holds, past the browser's cache: the 304 keeps the decoded tree.
    expect(calls[1]).toEqual({ ifNoneMatch: '"tree-1"', authorization: 'token-1', cache: 'no-store', status: 304 });
    await vi.waitFor(() => expect(queryClient.getQueryState(accountQuery().queryKey)?.fetchStatus).toBe('idle'));
    expect(tree.data()).toBe(first);

    // A device dropped while the socket was down: the tree changed, and comes whole with its new tag.
    stored.set('PUMP_1', false);
    version = 2;
    await reconnect(3);
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]).toMatchObject({ ifNoneMatch: '"tree-1"', status: 200 });
    await vi.waitFor(() => expect(tree.data()?.accounts[0]?.rootGroup.devices[0]?.isConnected).toBe(false));
    await reconnect(4);
    await vi.waitFor(() => expect(calls).toHaveLength(4));
    expect(calls[3]).toMatchObject({ ifNoneMatch: '"tree-2"', status: 304 });
    tree.stop();
  });

  it('is not revalidated with a tag another session read', async () => {
    stored.set('PUMP_1', true);
    const tree = showTree();
    await vi.waitFor(() => expect(tree.data()?.accounts).toHaveLength(1));
    localStorage.setItem(TOKEN_STORAGE_KEY, 'token-2');
    await reconnect(2);
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({ ifNoneMatch: null, authorization: 'token-2', cache: undefined, status: 200 });
    tree.stop();
  });

  it('is forgotten when the session ends, so the next session downloads its own', async () => {
    stored.set('PUMP_1', true);
    const tree = showTree();
    await vi.waitFor(() => expect(tree.data()?.accounts).toHaveLength(1));
    tree.stop();
    endSession();

    // The same token again (a sign-in as the same user): nothing of the ended session is held.
    localStorage.setItem(TOKEN_STORAGE_KEY, 'token-1');
    const next = showTree();
    await vi.waitFor(() => expect(next.data()?.accounts).toHaveLength(1));
    expect(calls[1]).toEqual({ ifNoneMatch: null, authorization: 'token-1', cache: undefined, status: 200 });
    next.stop();
  });
});
