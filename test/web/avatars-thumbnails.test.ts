// Avatars and thumbnails in the viewer's pages over real HTTP, on both databases (issue 28):
// a creator with an avatar has it beside their name on every card (home, category, search,
// following feed), on the watch page and in their own header, and the file it names is served;
// a creator without one gets their initial on a circle. No card's thumbnail <img> names a file
// that is not there: a video whose thumbnail was never made and a live stream before its first
// one show the placeholder. The avatars of a page of cards are read in one lookup.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';
import { giveThumbnail, PASSWORD, setScene } from '../helpers/pictures.ts';
import { MediaPaths, PLAYLIST_FILE } from '../../src/media/media-paths.ts';
import { newAgent, signIn } from '../helpers/web.ts';
import { waitFor } from '../helpers/wait.ts';

const HOUR = 3_600_000;

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

    // A playable video without a thumbnail names none in its page (poster, og:image) or its oEmbed,
    // where a broken image would show in players and link previews; one with a thumbnail does.
    for (const id of [pictured.video, pictured.bareVideo]) {
      const folder = new MediaPaths(server.dataDir).videoDir(id);
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, PLAYLIST_FILE), '#EXTM3U\n');
    }
    const shareOf = async (id: string) => {
      const page = await (await visitor.get(`/watch/${id}`)).text();
      const watchUrl = `${server.origin}/watch/${id}`;
      const oembed = (await (
        await visitor.get(`/oembed?url=${encodeURIComponent(watchUrl)}`)
      ).json()) as Record<string, unknown>;
      return { page, oembed };
    };
    const thumbnailOf = (id: string) => `/media/videos/${id}/thumbnail\\.jpg\\?v=\\d+`;
    const withPicture = await shareOf(pictured.video);
    assert.match(withPicture.page, new RegExp(`poster="${thumbnailOf(pictured.video)}"`));
    assert.match(
      withPicture.page,
      new RegExp(`<meta property="og:image" content="[^"]*${thumbnailOf(pictured.video)}"`),
    );
    assert.match(String(withPicture.oembed.thumbnail_url), new RegExp(thumbnailOf(pictured.video)));
    const withoutPicture = await shareOf(pictured.bareVideo);
    assert.match(withoutPicture.page, /id="player"/, 'the video still plays');
    assert.doesNotMatch(withoutPicture.page, /poster=|og:image|twitter:image|thumbnail\.jpg/);
    assert.equal(withoutPicture.oembed.thumbnail_url, undefined);

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
    const late = await shareOf(pictured.bareVideo);
    assert.match(late.page, new RegExp(`poster="${thumbnailOf(pictured.bareVideo)}"`));
    assert.match(String(late.oembed.thumbnail_url), new RegExp(thumbnailOf(pictured.bareVideo)), 'oEmbed');
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
