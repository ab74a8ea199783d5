import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Answers smaller than this go as they are: below about one network packet compression saves no
 * round trip and costs the server time on every call.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Brotli quality for answers built per call: 4 compresses as fast as gzip's default and a fifth smaller. */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

/**
 * From this size an answer is compressed at the fastest setting (brotli 1, gzip 1): the account tree
 * of 100,000 devices (11 MB of JSON) takes 50 ms at brotli 1 against 250 ms at 4, for 18 % more
 * bytes (4.1 MB against 3.5 MB), and the caller waits for all of it before the first byte is sent.
 */
export const LARGE_ANSWER_BYTES = 1024 * 1024;

/** Brotli quality and gzip level for an answer of this many bytes. */
export function compressionEffort(bytes: number): { brotliQuality: number; gzipLevel: number } {
  return bytes >= LARGE_ANSWER_BYTES
    ? { brotliQuality: 1, gzipLevel: 1 }
    : { brotliQuality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL };
}

export type ContentCoding = 'br' | 'gzip';

/**
 * The coding to use for an `Accept-Encoding` header: brotli when accepted, else gzip, else none.
 * Weights (`;q=`) are honoured: `q=0` refuses a coding, and of two accepted the higher weight wins
 * (brotli on a tie). `*` stands for any coding not named.
 */
export function chooseContentCoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    // A weight that is not a number refuses the coding rather than taking it at full weight.
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name.trim() !== '') weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentCoding) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br > 0 && br >= gz) return 'br';
  return gz > 0 ? 'gzip' : null;
}

/** Adds a field to the `Vary` header without dropping the ones other hooks set. */
export function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const fields = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!fields.some((name) => name.toLowerCase() === field.toLowerCase() || name === '*')) fields.push(field);
  reply.header('vary', fields.join(', '));
}

/**
 * True when an `If-None-Match` header names `etag`: one of its list, weak and strong forms alike (the
 * weak comparison RFC 9110 sets for this header), or `*`.
 */
export function ifNoneMatchNames(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/** JSON text compressed with the coding, at the effort its size calls for (zlib's thread pool). */
export function compressJson(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  const effort = compressionEffort(body.length);
  return coding === 'br'
    ? brotliAsync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: effort.brotliQuality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzipAsync(body, { level: effort.gzipLevel });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * Compresses JSON answers of `COMPRESSION_THRESHOLD_BYTES` or more with brotli or gzip, as the
 * client accepts (docs/decisions.md, "GET /account at 100,000 devices"). zlib runs on the thread
 * pool, off the event loop. Answers that already carry a `Content-Encoding` (the device table, which
 * keeps its compressed body) and streamed files pass through unchanged.
 */
export const compressionPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;
      if (reply.statusCode < 200 || reply.statusCode === 204 || reply.statusCode === 304) return payload;
      if (reply.hasHeader('content-encoding')) return payload;
      // Whether or not this answer is compressed, a cache must key it by the coding asked for.
      addVary(reply, 'accept-encoding');
      const coding = chooseContentCoding(request.headers['accept-encoding']);
      if (!coding || Buffer.byteLength(payload) < COMPRESSION_THRESHOLD_BYTES) return payload;
      const compressed = await compressJson(typeof payload === 'string' ? Buffer.from(payload) : payload, coding);
      reply.header('content-encoding', coding).removeHeader('content-length');
      return compressed;
    });
  },
  { name: 'compression' },
);
