import fs from 'node:fs';
import path from 'node:path';
import type { Video } from '@fieldlink/api/videos';

/** Files the library lists and serves, by extension, with their media types. */
export const VIDEO_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
};

/** A video file the library lists and serves: a known extension, not hidden. */
export const isVideoFile = (file: string): boolean =>
  !path.basename(file).startsWith('.') && path.extname(file).toLowerCase() in VIDEO_TYPES;

/** `02-live-dashboards.mp4` -> "Live dashboards": a leading order number and the extension dropped. */
export function titleFromFile(file: string): string {
  const words = path
    .basename(file, path.extname(file))
    .replace(/^\d+[\s._-]+/, '')
    .replace(/[\s._-]+/g, ' ')
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : file;
}

/** `02-Live Dashboards.mp4` -> `02-live-dashboards`: the path segment after `/videos/`. */
export function slugFromFile(file: string): string {
  return path
    .basename(file, path.extname(file))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * The video library: the video files of `VIDEOS_DIR` in file-name order (number them to order them),
 * then the entries of `VIDEO_URLS` in their order, each `https://host/file.mp4` or
 * `Title|https://host/file.mp4`. Read on every call, so a file dropped into the directory shows at once.
 */
export function listVideos(options: { directory: string | null; urls: readonly string[] }): Video[] {
  const videos: Video[] = [];
  const slugs = new Set<string>();
  const add = (video: Video) => {
    let slug = video.slug || 'video';
    for (let n = 2; slugs.has(slug); n += 1) slug = `${video.slug}-${n}`;
    slugs.add(slug);
    videos.push({ ...video, slug });
  };
  if (options.directory) {
    const files = fs.existsSync(options.directory)
      ? fs
          .readdirSync(options.directory, { withFileTypes: true })
          .filter((entry) => entry.isFile() && isVideoFile(entry.name))
          .map((entry) => entry.name)
          .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      : [];
    for (const file of files) {
      add({
        slug: slugFromFile(file),
        title: titleFromFile(file),
        url: `/api/v1/videos/${encodeURIComponent(file)}`,
        type: VIDEO_TYPES[path.extname(file).toLowerCase()]!,
      });
    }
  }
  for (const entry of options.urls) {
    const separator = entry.indexOf('|');
    const url = (separator >= 0 ? entry.slice(separator + 1) : entry).trim();
    const file = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    const title = separator >= 0 ? entry.slice(0, separator).trim() : titleFromFile(file);
    add({
      slug: slugFromFile(separator >= 0 ? title : file),
      title,
      url,
      type: VIDEO_TYPES[path.extname(file).toLowerCase()] ?? 'video/mp4',
    });
  }
  return videos;
}
