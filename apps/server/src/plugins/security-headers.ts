import fastifyHelmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { contentSecurityDirectives } from '../security/content-security-policy';

/**
 * The security headers of every answer, API and pages alike, on `@fastify/helmet`: scripts only from
 * the console's own files (the policy in security/content-security-policy.ts), no MIME sniffing, no
 * framing by other sites (its own pages may frame its files), no full addresses (with ids and codes)
 * leaked to other sites in the Referer, a browsing context of its own, and helmet's other defaults.
 * Strict-Transport-Security only when this process answers HTTPS itself (`TLS_CERT_FILE`): a year,
 * this host only (the customer's other hosts are theirs to decide). Over plain HTTP a browser ignores
 * it, and HTTPS terminated in front of the process sends its own (docs/operations.md).
 */
/** How long a browser keeps to HTTPS for this host after an answer over HTTPS. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

export const securityHeadersPlugin = fp(
  async (app) => {
    const { config } = app;
    await app.register(fastifyHelmet, {
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(config) },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      xFrameOptions: { action: 'sameorigin' },
      // A console on another host of the same site (core §7's API host) may still load its files.
      crossOriginResourcePolicy: { policy: 'same-site' },
      strictTransportSecurity: config.tls ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
    });
  },
  { name: 'security-headers', dependencies: ['settings'] },
);
