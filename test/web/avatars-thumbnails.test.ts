// Avatars and thumbnails in the viewer's pages over real HTTP, on both databases (issue 28):
// a creator with an avatar has it beside their name on every card (home, category, search,
// following feed), on the watch page and in their own header, and the file it names is served;
// a creator without one gets their initial on a circle. No card's thumbnail <img> names a file
// that is not there: a video whose thumbnail was never made and a live stream before its first
// one show the placeholder. The avatars of a page of cards are read in one lookup.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';
import { newAgent, signIn, signUp, type WebAgent } from '../helpers/web.ts';
import { waitFor } from '../helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'avatars and thumbnails';
const HOUR = 3_600_000;

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

/** The <li> card that links to /watch/<id> (the first one: the feed's comes before the listing's). */
function cardOf(page: string, id: string): string {
  const at = page.indexOf(`href="/watch/${id}"`);
  assert.notEqual(at, -1, `a card for ${id}`);
  const start = page.lastIndexOf('<li', at);
  const end = page.indexOf('</li>', at);
  return page.slice(start, end);
}

function imageSources(page: string): string[] {
  return [...page.matchAll(/<img\b[^>]*\ssrc="([^"]+)"/g)].map((match) =>
    (match[1] ?? '').replace(/&amp;/g, '&'),
  );
}

for (const dialect of DIALECTS) {
  test(`avatars beside creators' names and no thumbnail that is not there (${dialect})`, async (t) => {
    const server = await startTestApp(t, {
      dialect,
      clock: systemClock,
      rateLimitPerIp: 10_000,
      uploadWorker: true,
      media: {},
    });
    const dir = fs.mkdtempSync(path.join(server.dataDir, 'pictures-'));
    const scene = await setScene(server, dir);
    const { pictured, plain } = scene;
    const avatarPath = new RegExp(`/profiles/${pictured.userId}/avatar-\\d+-64\\.jpg`);

    const visitor = newAgent(server.origin);
    const pages: Record<string, string> = {};
    for (const [name, agent, address] of [
      ['home', visitor, '/'],
      ['category', visitor, '/?category=music'],
      ['search', visitor, '/search?q=aurora'],
      ['following', scene.viewer, '/'],
    ] as const) {
      const response = await agent.get(address);
      assert.equal(response.status, 200, address);
      pages[name] = await response.text();
    }

    for (const [name, page] of Object.entries(pages)) {
      // The pictured creator's card: their avatar beside their name, lazy and sized.
      const card = cardOf(page, pictured.video);
      assert.match(card, avatarPath, `${name}: the avatar is on the card`);
      assert.match(card, /<img\s+class="avatar avatar-24"[^>]*width="24"\s+height="24"\s+loading="lazy"/);
      assert.match(card, /Aurora Pictured/);
      if (name !== 'search') {
        // The plain creator's card: their initial on a circle, no image.
        const plainCard = cardOf(page, plain.video);
        assert.match(
          plainCard,
          /<span class="avatar avatar-24 avatar-initial avatar-tone-\d" aria-hidden="true"\s*>B<\/span/,
        );
        assert.doesNotMatch(plainCard, /\/profiles\//);
      }
      // A video with a thumbnail has it; one without has the placeholder, never an <img>.
      assert.match(
        card,
        new RegExp(
          `<img\\s+class="thumb-img"\\s+src="/media/videos/${pictured.video}/thumbnail\\.jpg\\?v=\\d+"`,
        ),
      );
      if (name !== 'search') {
        const bare = cardOf(page, pictured.bareVideo);
        assert.doesNotMatch(bare, /class="thumb-img"/, `${name}: no thumbnail image for a video without one`);
        assert.match(
          bare,
          /<span class="thumb-empty" aria-hidden="true"><span class="thumb-empty-text">No preview</,
        );
        const live = cardOf(page, pictured.live);
        assert.doesNotMatch(live, /class="thumb-img"/, `${name}: no thumbnail image before the first one`);
        assert.match(live, /Preview soon/);
      }
      // Every image on the page is there: fetched, each is a JPEG.
      for (const source of imageSources(page)) {
        const response = await visitor.get(source);
        assert.equal(response.status, 200, `${name}: ${source}`);
        assert.equal(response.headers.get('content-type'), 'image/jpeg', source);
        await response.arrayBuffer();
      }
    }
    // The search page's channel results have avatars too.
    assert.match(pages.search ?? '', new RegExp(`id="channel-results"[\\s\\S]*${avatarPath.source}`));

    // The watch page: the avatar beside the creator's name, or the initial.
    const watch = await (await visitor.get(`/watch/${pictured.video}`)).text();
    assert.match(
      watch,
      new RegExp(`<a id="creator"[^>]*><img\\s+class="avatar avatar-32"\\s+src="${avatarPath.source}"`),
    );
    const plainWatch = await (await visitor.get(`/watch/${plain.video}`)).text();
    assert.match(
      plainWatch,
      /<a id="creator"[^>]*><span class="avatar avatar-32 avatar-initial avatar-tone-\d" aria-hidden="true"\s*>B</,
    );

    // The header: a signed-in creator with an avatar sees it; one without, their initial.
    const aurora = await signIn(server.origin, { email: 'aurora@example.com', password: PASSWORD });
    const own = await (await aurora.get('/')).text();
    assert.match(
      own,
      new RegExp(
        `<a\\s+class="nav-user"\\s+href="/account"[^>]*><img\\s+class="avatar avatar-28"\\s+src="${avatarPath.source}"`,
      ),
    );
    const basil = await signIn(server.origin, { email: 'basil@example.com', password: PASSWORD });
    const plainHeader = await (await basil.get('/')).text();
    assert.match(plainHeader, /<a\s+class="nav-user"\s+href="\/account"\s+data-initial="B" data-tone="\d"/);

    // A thumbnail made on a later try replaces the placeholder (home's listing is cached for a second).
    await giveThumbnail(server, pictured.bareVideo, fs.readFileSync(path.join(dir, 'thumb.jpg')));
    await waitFor(
      async () =>
        cardOf(await (await visitor.get('/?category=music')).text(), pictured.bareVideo).includes(
          'thumb-img',
        ),
      {
        what: 'the late thumbnail on the card',
      },
    );
  });
}

test('a page of cards from many creators reads their avatars in one lookup', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite', clock: systemClock, rateLimitPerIp: 10_000 });
  const db = server.services.database.db;
  const creators = await Promise.all(
    Array.from({ length: 12 }, (_, i) => server.createAccount(`Creator ${i}`)),
  );
  await seedVideos(db, 12, (i) => ({
    creator_id: creators[i]?.userId ?? '',
    published_at: Date.now() - i * HOUR,
  }));
  await seedStreams(db, 6, (i) => ({
    creator_id: creators[i]?.userId ?? '',
    status: 'live',
    started_at: Date.now() - HOUR,
    category: 'music',
  }));
  const profiles = server.services.profiles;
  const asked: number[] = [];
  const avatars = profiles.avatars.bind(profiles);
  profiles.avatars = (ids) => {
    asked.push(ids.length);
    return avatars(ids);
  };
  const page = await (await newAgent(server.origin).get('/?category=music')).text();
  assert.equal(
    (page.match(/class="avatar avatar-24 avatar-initial/g) ?? []).length,
    18,
    'every card has its placeholder',
  );
  assert.deepEqual(asked, [12], 'one lookup for the twelve creators of eighteen cards');
});
