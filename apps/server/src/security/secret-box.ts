import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

/**
 * Encrypts small secrets at rest (TOTP secrets) with AES-256-GCM under a key of the installation: a
 * copy of the users table, a log or a backup of it alone does not give them away. Sealed text is
 * `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyText: string) {
    this.key = createHash('sha256').update(keyText).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  /** The plain text; throws for text sealed under another key or altered. */
  open(sealed: string): string {
    const [version, iv, data, tag] = sealed.split('.');
    if (version !== VERSION || !iv || data === undefined || !tag) throw new Error('Not a sealed secret');
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
