import { Type, type Static } from '@sinclair/typebox';

/**
 * Generated documents (reports, brew batch reports) are fetched through short-lived signed URLs:
 * a call that checks the caller's access answers `{url}`, and the URL itself needs no session, so
 * the browser can open or download it directly. The token carries the file, the disposition and the
 * expiry, signed with the installation's secret.
 */
export const FILE_PATH = '/file';

/** How long a signed file URL works. */
export const FILE_LINK_TTL_MS = 5 * 60_000;

export const FileQuery = Type.Object(
  { token: Type.String({ minLength: 10, maxLength: 400 }) },
  { additionalProperties: false },
);
export type FileQuery = Static<typeof FileQuery>;

/** Answer of every call that hands out a file (`GET /report`, `GET /brew/batch/report`). */
export const FileUrlAnswer = Type.Object({ url: Type.String() });
export type FileUrlAnswer = Static<typeof FileUrlAnswer>;
