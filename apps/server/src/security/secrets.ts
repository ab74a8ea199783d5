import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random id: 16 base64url characters (96 bits). */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}

/** A random one-time code for mailed links: 256 bits. */
export function newCode(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A device secret: 192 random bits in base64url, never starting with `-`: a spreadsheet would read
 * such a cell of the credentials file as a formula, and neutralising it would change the password.
 */
export function newDeviceSecret(): string {
  for (;;) {
    const secret = randomBytes(24).toString('base64url');
    if (!secret.startsWith('-')) return secret;
  }
}

/**
 * Hash of a high-entropy secret (device passwords, mailed codes). These carry 192+ random bits, so a
 * fast hash is safe here, unlike user-chosen passwords; it keeps device connects cheap.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Constant-time check of a secret against its stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret));
  const expected = Buffer.from(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Derives a demo device's password from the installation's demo key, so the embedded fleet can connect. */
export function demoDevicePassword(demoKey: string, thingName: string): string {
  return createHmac('sha256', demoKey).update(thingName).digest('base64url').slice(0, 32);
}
