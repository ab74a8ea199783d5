import { ServerAction } from '@fieldlink/api/realtime';
import { Value } from '@sinclair/typebox/value';

/**
 * Parses and validates one frame from the server against the contract's `ServerAction` union.
 * Anything else (not JSON, an unknown type, a known type with the wrong shape, as an older or newer
 * server might send) is ignored rather than trusted: the store must never hold a half-formed value.
 * Checking costs about 2 kB gzip on top of the schemas the contract already brings.
 */
export function parseServerAction(data: unknown): ServerAction | null {
  if (typeof data !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  return Value.Check(ServerAction, message) ? message : null;
}
