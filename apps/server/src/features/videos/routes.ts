import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fastifyStatic from '@fastify/static';
import { VideosAnswer } from '@fieldlink/api/videos';
import { isVideoFile, listVideos } from './service';

/**
 * The public video library of `/videos/*` (core §2, public like the page): the list, and the files of
 * the configured directory with range requests (seeking) and caching headers. Nothing else of that
 * directory is served.
 */
export const videoRoutes: FastifyPluginAsyncTypebox<{ directory: string | null; urls: readonly string[] }> = async (
  app,
  { directory, urls },
) => {
  app.get(
    '/videos',
    {
      schema: {
        tags: ['system'],
        summary: 'The video library: VIDEOS_DIR files, then VIDEO_URLS entries',
        response: { 200: VideosAnswer },
      },
    },
    async () => ({ videos: listVideos({ directory, urls }) }),
  );
  if (directory) {
    await app.register(fastifyStatic, {
      root: directory,
      prefix: '/videos/',
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      allowedPath: (pathName) => isVideoFile(pathName) && !pathName.slice(1).includes('/'),
      cacheControl: true,
      maxAge: '1h',
    });
  }
};
