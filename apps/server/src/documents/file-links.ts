import { createHmac, timingSafeEqual } from 'node:crypto';
import { FILE_LINK_TTL_MS, FILE_PATH } from '@fieldlink/api/files';

/** What a signed file link grants: one file, until it expires. */
export interface FileGrant {
  fileId: string;
  /** Served as an attachment (download) rather than inline (open). */
  download: boolean;
  expiresAt: number;
}

/**
 * Short-lived signed URLs of stored files (`GET {FILE_PATH}?token=`). The token is the grant in
 * base64url JSON and its HMAC-SHA256 under the installation's secret: it cannot be forged or
 * widened to another file, and it stops working after {@link FILE_LINK_TTL_MS}.
 */
export class FileLinks {
  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The file's URL, valid for {@link FILE_LINK_TTL_MS}: a path from the server's root, which the
   * browser resolves against the console it runs in (whatever host name it was reached by).
   */
  url(fileId: string, download = false): string {
    const grant: FileGrant = { fileId, download, expiresAt: this.now() + FILE_LINK_TTL_MS };
    const body = Buffer.from(JSON.stringify(grant)).toString('base64url');
    const token = `${body}.${this.sign(body)}`;
    return `/api/v1${FILE_PATH}?token=${token}`;
  }

  /** The grant of a token, or null when it is forged, malformed or expired. */
  verify(token: string): FileGrant | null {
    const [body = '', signature = '', extra] = token.split('.');
    if (extra !== undefined || body === '') return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const grant = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<FileGrant>;
      if (typeof grant.fileId !== 'string' || typeof grant.expiresAt !== 'number') return null;
      if (grant.expiresAt <= this.now()) return null;
      return { fileId: grant.fileId, download: grant.download === true, expiresAt: grant.expiresAt };
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
