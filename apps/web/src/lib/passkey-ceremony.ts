/**
 * The text of a passkey ceremony that failed in the browser (cancelled, timed out, or no passkey
 * there) rather than at the server.
 */
export const PASSKEY_CANCELLED = 'No passkey was used: the request was cancelled or timed out. Try again.';

/** True for a failure of the browser's ceremony: the person cancelled or the authenticator refused. */
export function isCeremonyFailure(error: unknown): boolean {
  return error instanceof Error && ['NotAllowedError', 'AbortError', 'InvalidStateError'].includes(error.name);
}
