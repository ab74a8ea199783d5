/** A demo call refused as the server would refuse it: the status and the message of the answer. */
export class DemoCallError extends Error {
  override readonly name = 'DemoCallError';
  constructor(
    readonly status: number,
    message: string,
    /** A request its route's schema refuses (the server's `invalidRequest`). */
    readonly invalidRequest = false,
  ) {
    super(message);
  }
}
