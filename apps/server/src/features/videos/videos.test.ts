import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { startTestApp, type TestApp } from '../../../testing/test-app';
import { slugFromFile, titleFromFile } from './service';

// The library reads no storage: one dialect is enough.

describe('video titles and slugs from file names', () => {
  it.each([
    ['01-getting-started.mp4', 'Getting started', '01-getting-started'],
    ['02_Live dashboards.webm', 'Live dashboards', '02-live-dashboards'],
    ['alarms.m4v', 'Alarms', 'alarms'],
    ['10 Scheduled.Reports.ogv', 'Scheduled Reports', '10-scheduled-reports'],
  ])('%s -> "%s" at /videos/%s', (file, title, slug) => {
    expect(titleFromFile(file)).toBe(title);
    expect(slugFromFile(file)).toBe(slug);
  });
});

describe('VIDEO_URLS', () => {
  it('refuses an entry that is not an http(s) address of a file', () => {
    expect(() => loadConfig({ VIDEO_URLS: 'Intro|ftp://example.com/a.mp4' })).toThrow(
      'VIDEO_URLS: "Intro|ftp://example.com/a.mp4" is not an http(s) address of a video file',
    );
  });
});

describe('GET /videos without a library', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t?.close());

  it('answers an empty list and serves no file', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/videos' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ videos: [] });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/videos/intro.mp4' })).statusCode).toBe(404);
  });
});

describe('GET /videos with VIDEOS_DIR and VIDEO_URLS', () => {
  let t: TestApp;
  let directory: string;
  const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));

  beforeAll(async () => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldlink-videos-'));
    fs.writeFileSync(path.join(directory, '10-scheduled-reports.webm'), bytes);
    fs.writeFileSync(path.join(directory, '2-alarms.mp4'), bytes);
    fs.writeFileSync(path.join(directory, 'notes.txt'), 'not a video');
    fs.writeFileSync(path.join(directory, '.hidden.mp4'), bytes);
    fs.mkdirSync(path.join(directory, 'drafts'));
    fs.writeFileSync(path.join(directory, 'drafts', 'draft.mp4'), bytes);
    t = await startTestApp('sqlite', {
      env: {
        VIDEOS_DIR: directory,
        VIDEO_URLS:
          'https://cdn.example.com/media/intro-tour.mp4, Commissioning a pump|https://cdn.example.com/v/8f3a.webm',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('lists the directory’s video files in number order, then the listed URLs', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/videos' });
    expect(answer.json().videos).toEqual([
      { slug: '2-alarms', title: 'Alarms', url: '/api/v1/videos/2-alarms.mp4', type: 'video/mp4' },
      {
        slug: '10-scheduled-reports',
        title: 'Scheduled reports',
        url: '/api/v1/videos/10-scheduled-reports.webm',
        type: 'video/webm',
      },
      {
        slug: 'intro-tour',
        title: 'Intro tour',
        url: 'https://cdn.example.com/media/intro-tour.mp4',
        type: 'video/mp4',
      },
      {
        slug: 'commissioning-a-pump',
        title: 'Commissioning a pump',
        url: 'https://cdn.example.com/v/8f3a.webm',
        type: 'video/webm',
      },
    ]);
  });

  it('serves a listed file whole and by range, for seeking', async () => {
    const whole = await t.app.inject({ method: 'GET', url: '/api/v1/videos/2-alarms.mp4' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await t.app.inject({
      method: 'GET',
      url: '/api/v1/videos/2-alarms.mp4',
      headers: { range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
  });

  it('serves nothing else of the directory', async () => {
    for (const url of [
      '/api/v1/videos/notes.txt',
      '/api/v1/videos/.hidden.mp4',
      '/api/v1/videos/drafts/draft.mp4',
      '/api/v1/videos/..%2Fpasswd.mp4',
      '/api/v1/videos/missing.mp4',
    ]) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(answer.statusCode, url).toBeLessThan(500);
    }
  });
});
