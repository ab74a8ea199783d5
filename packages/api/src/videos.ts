import { Type, type Static } from '@sinclair/typebox';

/** One video of the library at `/videos/*` (core §2): from the configured directory or URL list. */
export const Video = Type.Object({
  /** The path segment after `/videos/`. */
  slug: Type.String(),
  title: Type.String(),
  /** Where the browser plays it from: `/api/v1/videos/{file}` for the directory, else the listed URL. */
  url: Type.String(),
  /** Media type, e.g. `video/mp4`. */
  type: Type.String(),
});
export type Video = Static<typeof Video>;

export const VideosAnswer = Type.Object({ videos: Type.Array(Video) });
export type VideosAnswer = Static<typeof VideosAnswer>;
