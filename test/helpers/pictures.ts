// Creators with and without avatars, videos with and without thumbnails (issue 28): what the
// avatar and thumbnail tests (test/web/avatars-*.test.ts) set up, with real pictures made by
// ffmpeg, avatars made by the real media job, and thumbnails where the media routes serve them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { MediaPaths } from '../../src/media/media-paths.ts';
import type { TestApp } from './app.ts';
import { seedStreams, seedVideos } from './seed.ts';
import { signUp, type WebAgent } from './web.ts';
import { waitFor } from './wait.ts';

export const PASSWORD = 'avatars and thumbnails';
const HOUR = 3_600_000;
const run = promisify(execFile);

/** A real picture made by ffmpeg (`source` is a lavfi source), as bytes. */
export async function picture(dir: string, name: string, source: string): Promise<Buffer> {
  const file = path.join(dir, name);
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    source,
    '-frames:v',
    '1',
    file,
  ]);
  return fs.readFileSync(file);
}

/** Uploads `bytes` as the user's avatar through the service and waits for the media job. */
export async function giveAvatar(server: TestApp, userId: string, bytes: Buffer): Promise<void> {
  await server.services.profiles.acceptImage(userId, 'avatar', bytes);
  await waitFor(async () => (await server.services.profiles.find(userId))?.avatar.status === 'ready', {
    timeoutMs: 60_000,
    what: 'the avatar to be made',
  });
}

/** Puts a real thumbnail file where the media routes serve a video's, and records it. */
export async function giveThumbnail(server: TestApp, videoId: string, bytes: Buffer): Promise<void> {
  const dir = new MediaPaths(server.dataDir).videoDir(videoId);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'thumbnail.jpg'), bytes);
  await server.services.videos.thumbnailMade(videoId);
}

export interface Scene {
  /** Has an avatar; one video with a thumbnail, one without; live without a thumbnail yet. */
  pictured: { userId: string; video: string; bareVideo: string; live: string };
  /** Has no avatar; one video with a thumbnail. */
  plain: { userId: string; video: string };
  viewer: WebAgent;
}

/**
 * Two creators ("Aurora Pictured" with an avatar, "Basil Plain" without) and a viewer signed in
 * who subscribes to both, so the home page's following feed has their cards too.
 */
export async function setScene(server: TestApp, dir: string): Promise<Scene> {
  const db = server.services.database.db;
  const now = Date.now();
  await signUp(server.origin, { name: 'Aurora Pictured', email: 'aurora@example.com', password: PASSWORD });
  await signUp(server.origin, { name: 'Basil Plain', email: 'basil@example.com', password: PASSWORD });
  const viewer = await signUp(server.origin, {
    name: 'Vi Viewer',
    email: 'vi@example.com',
    password: PASSWORD,
  });
  const idOf = async (email: string) =>
    (await server.services.logins.signIn({ email, password: PASSWORD, address: 'test' })).id;
  const aurora = await idOf('aurora@example.com');
  const basil = await idOf('basil@example.com');
  const viewerId = await idOf('vi@example.com');
  await giveAvatar(server, aurora, await picture(dir, 'aurora.png', 'mandelbrot=size=300x300'));
  const thumb = await picture(dir, 'thumb.jpg', 'testsrc2=size=640x360');

  const [live] = await seedStreams(db, 1, () => ({
    creator_id: aurora,
    title: 'Aurora live, no thumbnail yet',
    status: 'live',
    started_at: now - HOUR,
    viewer_count: 3,
    category: 'music',
  }));
  // Seeded videos are published without a thumbnail (thumbnail_at null) until given one.
  const [video, bareVideo] = await seedVideos(db, 2, (i) => ({
    creator_id: aurora,
    title: i === 0 ? 'Aurora pictured video' : 'Aurora video whose thumbnail failed',
    published_at: now - (i + 1) * HOUR,
    category: 'music',
  }));
  const [plainVideo] = await seedVideos(db, 1, () => ({
    creator_id: basil,
    title: 'Basil plain video',
    published_at: now - 3 * HOUR,
    category: 'music',
  }));
  if (!live || !video || !bareVideo || !plainVideo) throw new Error('seeding failed');
  await giveThumbnail(server, video, thumb);
  await giveThumbnail(server, plainVideo, thumb);
  await server.services.subscriptions.subscribeOnce(viewerId, aurora);
  await server.services.subscriptions.subscribeOnce(viewerId, basil);
  return {
    pictured: { userId: aurora, video, bareVideo, live },
    plain: { userId: basil, video: plainVideo },
    viewer,
  };
}
