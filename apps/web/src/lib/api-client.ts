import { INVALID_REQUEST_MESSAGE, type ErrorAnswer } from '@fieldlink/api/errors';
import { apiHeaders, buildUrl, type Query } from './api-address';
import { localBackend } from './demo/demo-session';
import { takeEarlyResponse } from './early-calls';
import { readToken } from './session-token';
import { currentSubdomain } from './subdomain';

/** Fallback text of the specification's generic server helper. */
export const GENERIC_SERVER_ERROR = 'Server error';

/** A failed call: an answer outside 200-299, or no answer at all (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    /** The server's `message`, when the answer carried one. */
    readonly serverMessage: string | null,
    readonly body: unknown,
  ) {
    super(serverMessage ?? (status === 0 ? 'Network error' : `HTTP ${status}`));
  }
}

/** The server's message of a failed call, else `fallback` (specification §8's failure wording). */
export function serverMessageOr(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** Generic server helper (§8): server message else "Server error". */
export function serverErrorMessage(error: unknown): string {
  return serverMessageOr(error, GENERIC_SERVER_ERROR);
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** A token other than the session's: the enrol-only token of a second factor's set-up (issue 38). */
  token?: string;
}

/**
 * The server's message for a person: a schema's refusal names fields by their paths, so it is said in
 * the console's own words instead.
 */
function messageOf(body: unknown): string | null {
  if ((body as Partial<ErrorAnswer> | null)?.invalidRequest === true) return INVALID_REQUEST_MESSAGE;
  if (body && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Sends one call: to the backend in the browser when one answers it (demo mode), else over the
 * network. Every call of the console goes through here, so a demo runs every screen unchanged.
 */
export async function apiFetch(path: string, query: Query | undefined, init: RequestInit): Promise<Response> {
  const local = localBackend();
  if (local) {
    const body = typeof init.body === 'string' ? init.body : null;
    const answer = (await local).answer({
      method: init.method ?? 'GET',
      path,
      query: query ?? {},
      body,
      network: (changed) => fetch(buildUrl(path, changed), init),
    });
    if (answer) return answer;
  }
  const url = buildUrl(path, query);
  return takeEarlyResponse(url, init) ?? fetch(url, init);
}

/**
 * One call to the API. No timeout (the specification's client default): a slow report or log query
 * is allowed to finish, and callers that move on cancel through `signal`.
 */
export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers = apiHeaders(options.token ?? readToken(), currentSubdomain());
  const init: RequestInit = { method, headers, signal: options.signal ?? null, credentials: 'same-origin' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await apiFetch(path, options.query, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, null);
  }
  if (response.status < 200 || response.status > 299) throw await apiErrorOf(response);
  return (await readBody(response)) as T;
}

/** The error of a call answered outside 200-299, with the server's message when it sent one. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const body = await readBody(response);
  return new ApiError(response.status, messageOf(body), body);
}

export const apiGet = <T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> =>
  apiRequest<T>('GET', path, { query, signal });

export const apiPost = <T>(path: string, body?: unknown): Promise<T> => apiRequest<T>('POST', path, { body });
