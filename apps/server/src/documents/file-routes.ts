import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorAnswer } from '@fieldlink/api/errors';
import { FILE_PATH, FileQuery } from '@fieldlink/api/files';
import { notFound } from '../http-errors';
import type { FileLinks } from './file-links';
import type { FileStore, StoredFile } from './file-store';

/** The message of an expired, forged or revoked link, and of a removed file: the same for all. */
export const FILE_LINK_INVALID = 'This link has expired or is no longer valid.';

/** RFC 6266 `content-disposition` with an ASCII fallback and the UTF-8 name. */
function disposition(file: StoredFile, download: boolean): string {
  const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${download ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`;
}

/** Streams a stored file as the answer, chunk by chunk, never whole in memory. */
export function sendStoredFile(reply: FastifyReply, files: FileStore, file: StoredFile, download: boolean) {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', disposition(file, download))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(files.read(file.id)));
}

/** `GET /file?token`: a stored file through a short-lived signed link (documents/file-links.ts). */
export const fileRoutes: FastifyPluginAsyncTypebox<{ files: FileStore; links: FileLinks }> = async (
  app,
  { files, links },
) => {
  app.get(
    FILE_PATH,
    {
      schema: {
        tags: ['files'],
        summary: 'A generated document through the short-lived signed link a call such as GET /report answered',
        security: [],
        querystring: FileQuery,
        response: { 400: ErrorAnswer, 404: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const grant = links.verify(request.query.token);
      const file = grant ? await files.find(grant.fileId) : undefined;
      if (!grant || !file) throw notFound(FILE_LINK_INVALID);
      return sendStoredFile(reply, files, file, grant.download);
    },
  );
};
