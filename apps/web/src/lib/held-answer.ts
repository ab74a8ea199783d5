import { apiErrorOf, apiFetch, ApiError } from './api-client';
import { apiHeaders, type Query } from './api-address';
import { readToken } from './session-token';
import { currentSubdomain } from './subdomain';

/** Every answer held for revalidation, so that a session's end forgets them all. */
const everyHeld = new Set<HeldAnswer<unknown>>();

/**
 * A large GET the console revalidates itself with the answer's ETag (the account tree, the device
 * table): holding a decoded answer read in this session, it asks with `If-None-Match` past the
 * browser's cache (`no-store`), so a 304 reaches this code and the decoded answer is kept, the same
 * object, with nothing to parse or draw again. Holding none (a start, a reload), it asks with
 * `firstCache`: the browser's cache may then revalidate a stored copy and answer its body.
 */
export class HeldAnswer<T> {
  private held: { etag: string; token: string | null; value: T } | null = null;

  constructor(
    private readonly path: string,
    private readonly query: Query,
    /** Decodes a 200's body; `sent` is when the call was made (performance.now()). */
    private readonly decode: (response: Response, sent: number) => Promise<T>,
    private readonly firstCache?: RequestCache,
  ) {
    everyHeld.add(this as HeldAnswer<unknown>);
  }

  async get(signal?: AbortSignal): Promise<T> {
    const token = readToken();
    const headers = apiHeaders(token, currentSubdomain());
    const holding = this.held !== null && this.held.token === token ? this.held : null;
    if (holding) headers['if-none-match'] = holding.etag;
    const cache = holding ? 'no-store' : this.firstCache;
    const sent = performance.now();
    let response: Response;
    try {
      response = await apiFetch(this.path, this.query, {
        headers,
        signal: signal ?? null,
        credentials: 'same-origin',
        ...(cache && { cache }),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, null, null);
    }
    if (response.status === 304 && holding) return holding.value;
    if (!response.ok) throw await apiErrorOf(response);
    const value = await this.decode(response, sent);
    const etag = response.headers.get('etag');
    this.held = etag ? { etag, token, value } : null;
    return value;
  }

  forget(): void {
    this.held = null;
  }
}

/** Forgets every answer held for revalidation: a session's end wipes what it read (specification §4). */
export function forgetHeldAnswers(): void {
  for (const answer of everyHeld) answer.forget();
}
