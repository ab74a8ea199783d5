import fs from 'node:fs';
import tls from 'node:tls';

/** TLS 1.2 at least on every listener (HTTPS, WSS, MQTT over TLS). */
export const MIN_TLS_VERSION = 'TLSv1.2';

/** How often the certificate and key files are checked for a change (a renewal replaces them). */
const CHECK_INTERVAL_MS = 5_000;

export interface TlsLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** A listener whose certificate can be replaced while it runs (`https.Server`, `tls.Server`). */
interface SecureListener {
  setSecureContext(options: tls.SecureContextOptions): void;
}

/**
 * The certificate chain and key of `TLS_CERT_FILE` and `TLS_KEY_FILE`, read at start and again when
 * either file changes, so a renewed certificate (Let's Encrypt every 60-90 days) is used without a
 * restart: new connections get it, open ones keep theirs. A pair that does not load (a renewal
 * caught between writing the key and the certificate, a broken file) is logged and the previous one
 * kept; the next change is tried again.
 */
export class TlsCredentials {
  private current: { cert: Buffer; key: Buffer };
  private readonly listeners: SecureListener[] = [];
  private watching = false;

  constructor(
    private readonly files: { certFile: string; keyFile: string },
    private readonly logger: TlsLogger,
  ) {
    this.current = this.read();
    // Throws at start on a pair that does not belong together: better than a listener nobody reaches.
    tls.createSecureContext(this.current);
  }

  /** Options for `https.createServer` / `tls.createServer`. */
  get serverOptions(): tls.TlsOptions {
    return { ...this.current, minVersion: MIN_TLS_VERSION };
  }

  /** The certificate chain in use (PEM), for an in-process client that must trust it. */
  get certificate(): Buffer {
    return this.current.cert;
  }

  /** Gives the listener each new certificate; starts watching the files with the first. */
  follow(listener: SecureListener): void {
    this.listeners.push(listener);
    if (this.watching) return;
    this.watching = true;
    for (const file of [this.files.certFile, this.files.keyFile]) {
      fs.watchFile(file, { interval: CHECK_INTERVAL_MS, persistent: false }, (now, before) => {
        if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino || now.size !== before.size) this.reload();
      });
    }
  }

  /** Stops watching the files. */
  close(): void {
    if (!this.watching) return;
    fs.unwatchFile(this.files.certFile);
    fs.unwatchFile(this.files.keyFile);
    this.watching = false;
  }

  private read(): { cert: Buffer; key: Buffer } {
    return { cert: fs.readFileSync(this.files.certFile), key: fs.readFileSync(this.files.keyFile) };
  }

  private reload(): void {
    let next: { cert: Buffer; key: Buffer };
    try {
      next = this.read();
      tls.createSecureContext(next);
    } catch (error) {
      this.logger.warn(
        { err: error, ...this.files },
        'TLS certificate not reloaded: the files do not load; keeping the previous one',
      );
      return;
    }
    if (next.cert.equals(this.current.cert) && next.key.equals(this.current.key)) return;
    this.current = next;
    for (const listener of this.listeners) listener.setSecureContext({ ...next, minVersion: MIN_TLS_VERSION });
    this.logger.info({ certFile: this.files.certFile }, 'TLS certificate reloaded');
  }
}
