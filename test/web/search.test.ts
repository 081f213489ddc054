// Search and the following feed over real HTTP on both databases: /search finds streams,
// videos and channels by title, description, tags and creator name (every word required, the
// last as a prefix), never what a visitor may not see; tabs count, pages page; the index follows
// every write (API edits, a creator's new name, privacy, a stream ending); any text at all is a
// page and never a 500. The home page heads a signed-in viewer's with the live streams and
// newest videos of the channels they subscribe to.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../../src/db/database.ts';
import { CLI_ACTOR } from '../../src/moderation/moderation.service.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { prng } from '../helpers/prng.ts';
import { pause, waitFor } from '../helpers/wait.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';
import { newAgent, signUp, type WebAgent } from '../helpers/web.ts';

const HOUR = 3_600_000;
const PASSWORD = 'correct horse battery';

async function page(agent: WebAgent, path: string, status = 200): Promise<string> {
  const response = await agent.get(path);
  const text = await response.text();
  assert.equal(response.status, status, `${path}: ${text.slice(0, 400)}`);
  assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  return text;
}

/** The watch and channel links of a results page, in page order. */
function linked(text: string): string[] {
  return [...text.matchAll(/href="\/(?:watch|channels)\/([^"]+)"/g)].map((match) => match[1] ?? '');
}

function assertNoneOf(text: string, ids: readonly string[], where: string) {
  for (const id of ids) assert.ok(!text.includes(id), `${where} shows ${id}`);
}

async function seedSearchable(server: TestApp) {
  const db: Db = server.services.database.db;
  const now = server.clock.now();
  const ada = await server.createAccount('Ada Quasar');
  const bo = await server.createAccount('Bo Plain');
  const [byTitle, byTag, byDescription, privateVideo, unpublished] = await seedVideos(db, 5, (i) => ({
    creator_id: bo.userId,
    title:
      ['Zephyrine world record', 'Cooking pasta', 'Evening chat', 'Zephyrine secret', 'Zephyrine draft'][i] ??
      '',
    tags: i === 1 ? JSON.stringify(['zephyrine', 'food']) : '[]',
    description: i === 2 ? 'We talk about zephyrines and more.' : null,
    privacy: i === 3 ? 'private' : 'public',
    published_at: i === 4 ? null : now - (10 - i) * HOUR,
  }));
  const [adaVideo] = await seedVideos(db, 1, () => ({
    creator_id: ada.userId,
    title: 'Knitting basics',
    published_at: now - 2 * HOUR,
  }));
  const [live, upcoming, standby, ended, privateLive] = await seedStreams(db, 5, (i) => ({
    creator_id: bo.userId,
    title: `Zephyrine stream ${['live', 'soon', 'standby', 'over', 'hidden'][i]}`,
    status: (['live', 'scheduled', 'scheduled', 'ended', 'live'] as const)[i] ?? 'live',
    started_at: i === 0 || i === 3 || i === 4 ? now - HOUR : null,
    scheduled_at: i === 1 ? now + 24 * HOUR : null,
    viewer_count: i === 0 ? 7 : null,
    privacy: i === 4 ? 'private' : 'public',
  }));
  const ids = { byTitle, byTag, byDescription, privateVideo, unpublished, adaVideo, live, upcoming };
  for (const [name, id] of Object.entries({ ...ids, standby, ended, privateLive })) assert.ok(id, name);
  return {
    ada,
    bo,
    ...(ids as Record<keyof typeof ids, string>),
    hidden: [privateVideo, unpublished, standby, ended, privateLive] as string[],
  };
}

for (const dialect of DIALECTS) {
  test(`${dialect}: search finds streams, videos and channels a visitor may see, by any of their words`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 10_000 });
    const seeded = await seedSearchable(server);
    const visitor = newAgent(server.origin);

    // Title, tag and description, and the live and upcoming streams; the live stream first.
    const all = await page(visitor, '/search?q=zephyrine');
    assert.match(all, /<h1>Results for “<span id="search-text">zephyrine<\/span>”<\/h1>/);
    assert.match(all, /<input\s+type="search"\s+id="site-search-q"\s+name="q"\s+value="zephyrine"/);
    for (const id of [seeded.byTitle, seeded.byTag, seeded.byDescription, seeded.live, seeded.upcoming]) {
      assert.ok(all.includes(`href="/watch/${id}"`), `finds ${id}`);
    }
    assertNoneOf(all, [...seeded.hidden, seeded.adaVideo], 'zephyrine');
    assert.ok(all.indexOf(seeded.live) < all.indexOf(seeded.upcoming), 'live before upcoming');
    // The newest first, wherever the word is (title, tag or description).
    const order = linked(all).filter((id) => id.startsWith('vid_'));
    assert.deepEqual(order, [seeded.byDescription, seeded.byTag, seeded.byTitle]);
    // The tabs carry no counts (nothing is counted); three videos fit the preview: no "All videos".
    for (const label of ['All', 'Streams', 'Videos', 'Channels']) {
      assert.match(all, new RegExp(`class="chip"[^>]*>${label}</a`), label);
    }
    assert.ok(!all.includes('tab-count'));
    assert.ok(!all.includes('>All videos<'), 'nothing more to see');

    // A prefix, upper case, two words (both required), and the creator's name.
    assert.ok((await page(visitor, '/search?q=ZEPH')).includes(seeded.byTitle));
    const both = await page(visitor, '/search?q=zephyrine+record');
    assert.deepEqual(
      linked(both).filter((id) => id.startsWith('vid_')),
      [seeded.byTitle],
    );
    // Only the last word is a prefix (the word being typed); earlier words are whole words.
    const typing = await page(visitor, '/search?q=zephyrine+reco');
    assert.deepEqual(
      linked(typing).filter((id) => id.startsWith('vid_')),
      [seeded.byTitle],
    );
    assert.match(await page(visitor, '/search?q=zeph+record'), /Nothing matches “zeph record”/);
    const byCreator = await page(visitor, '/search?q=quasar');
    assert.ok(byCreator.includes(`href="/watch/${seeded.adaVideo}"`), "the creator's video");
    assert.ok(byCreator.includes(`href="/channels/${seeded.ada.userId}"`), 'the channel');
    assert.match(byCreator, /id="channel-results"/);

    // One kind at a time.
    const streams = await page(visitor, '/search?q=zephyrine&type=streams');
    assert.match(streams, /href="\/search\?q=zephyrine&amp;type=streams"\s+aria-current="page"/);
    assert.ok(streams.includes(seeded.live) && !streams.includes(seeded.byTitle));
    const videosOnly = await page(visitor, '/search?q=quasar&type=streams');
    assert.match(
      videosOnly,
      /No streams match “quasar”\.\s+<a href="\/search\?q=quasar">See all results<\/a>/,
    );
    // A tab with nothing while nothing else matches either says so.
    assert.match(await page(visitor, '/search?q=nonesuchword&type=videos'), /Nothing matches “nonesuchword”/);

    // Nothing found; nothing typed; nothing searchable typed.
    assert.match(await page(visitor, '/search?q=nonesuchword'), /Nothing matches “nonesuchword”/);
    assert.match(await page(visitor, '/search'), /<h1>Search<\/h1>/);
    assert.match(await page(visitor, '/search?q=%20%20'), /<h1>Search<\/h1>/);
    assert.match(await page(visitor, '/search?q=%22*%3A(%29'), /nothing to search for in “&quot;\*:\(\)”/);
    // Every page's header has the box.
    assert.match(await page(visitor, '/'), /<form class="site-search" role="search" action="\/search"/);
  });

  test(`${dialect}: moderation hides from search what it hides everywhere: takedowns and suspended creators`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 10_000 });
    const db: Db = server.services.database.db;
    const now = server.clock.now();
    const good = await server.createAccount('Quillon Good');
    const banned = await server.createAccount('Quillon Banned');
    const [kept, takenDown] = await seedVideos(db, 2, (i) => ({
      creator_id: good.userId,
      title: `Quillon video ${i}`,
      published_at: now - (i + 1) * HOUR,
    }));
    const [recordedFromTakenDown] = await seedVideos(db, 1, () => ({
      creator_id: good.userId,
      title: 'Quillon recording',
      published_at: now - 3 * HOUR,
    }));
    const [keptLive, takenDownLive] = await seedStreams(db, 2, (i) => ({
      creator_id: good.userId,
      title: `Quillon live ${i}`,
      status: 'live',
      started_at: now - HOUR,
    }));
    const [bannedVideo] = await seedVideos(db, 1, () => ({
      creator_id: banned.userId,
      title: 'Quillon banned video',
      published_at: now - HOUR,
    }));
    const [bannedLive] = await seedStreams(db, 1, () => ({
      creator_id: banned.userId,
      title: 'Quillon banned live',
      status: 'live',
      started_at: now - HOUR,
    }));
    assert.ok(
      kept && takenDown && recordedFromTakenDown && keptLive && takenDownLive && bannedVideo && bannedLive,
    );
    await db
      .updateTable('videos')
      .set({ source_stream_id: takenDownLive })
      .where('id', '=', recordedFromTakenDown)
      .execute();
    const visitor = newAgent(server.origin);
    const before = await page(visitor, '/search?q=quillon');
    for (const id of [
      kept,
      takenDown,
      recordedFromTakenDown,
      keptLive,
      takenDownLive,
      bannedVideo,
      bannedLive,
    ]) {
      assert.ok(before.includes(id), `before moderation, ${id} is found`);
    }
    assert.ok(before.includes(`href="/channels/${banned.userId}"`), 'and the channel');

    const moderation = server.services.moderation;
    await moderation.takedown(CLI_ACTOR, 'video', takenDown, 'Copyright');
    await moderation.takedown(CLI_ACTOR, 'stream', takenDownLive, 'Copyright');
    await moderation.suspend(CLI_ACTOR, banned.userId, 'Spam');
    // A search's results are reused for a second (SearchService): past that, moderation shows.
    await pause(1100);
    for (const path of [
      '/search?q=quillon',
      '/search?q=quillon&type=videos',
      '/search?q=quillon&type=streams',
    ]) {
      const after = await page(visitor, path);
      assertNoneOf(after, [takenDown, recordedFromTakenDown, takenDownLive, bannedVideo, bannedLive], path);
    }
    const after = await page(visitor, '/search?q=quillon');
    assert.ok(after.includes(kept) && after.includes(keptLive), 'what moderation left is still found');
    const channels = await page(visitor, '/search?q=quillon&type=channels');
    assert.ok(channels.includes(`href="/channels/${good.userId}"`), 'the good channel');
    assert.ok(!channels.includes(banned.userId), "the suspended creator's channel is not");
  });

  test(`${dialect}: results are paged twenty at a time, with Previous and Next`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 10_000 });
    const creator = await server.createAccount('Pager');
    const now = server.clock.now();
    const ids = await seedVideos(server.services.database.db, 45, (i) => ({
      creator_id: creator.userId,
      title: `Marmalade episode ${i}`,
      published_at: now - i * HOUR,
    }));
    const visitor = newAgent(server.origin);
    const all = await page(visitor, '/search?q=marmalade');
    assert.equal(linked(all).filter((id) => id.startsWith('vid_')).length, 8, 'a preview of eight');
    assert.match(all, /<a href="\/search\?q=marmalade&amp;type=videos">All videos<\/a>/);
    const preview = linked(all).filter((id) => id.startsWith('vid_'));
    assert.equal(new Set(preview).size, 8);
    assert.ok(preview.every((id) => ids.includes(id)));
    const seen = new Set<string>();
    let path: string | undefined = '/search?q=marmalade&type=videos';
    let pages = 0;
    while (path !== undefined) {
      const text = await page(visitor, path);
      pages++;
      assert.match(text, new RegExp(`Page ${pages}<`));
      for (const id of linked(text).filter((link) => link.startsWith('vid_'))) seen.add(id);
      path = /rel="next" href="([^"]+)"/.exec(text)?.[1]?.replace(/&amp;/g, '&');
      if (pages > 1) assert.match(text, /rel="prev"/);
    }
    assert.equal(pages, 3, 'no Next on the last page');
    assert.deepEqual([...seen].sort(), [...ids].sort(), 'every match once over the pages');
    // Streams: the live ones first over the pages, then the upcoming ones.
    const live = await seedStreams(server.services.database.db, 25, (i) => ({
      creator_id: creator.userId,
      title: `Kumquat live ${i}`,
      status: 'live',
      started_at: now - HOUR,
    }));
    const upcoming = await seedStreams(server.services.database.db, 10, (i) => ({
      creator_id: creator.userId,
      title: `Kumquat soon ${i}`,
      status: 'scheduled',
      scheduled_at: now + (i + 1) * HOUR,
    }));
    const streamPage = async (n: number) =>
      linked(await page(visitor, `/search?q=kumquat&type=streams&page=${n}`)).filter((id) =>
        id.startsWith('str_'),
      );
    const [first, second] = [await streamPage(1), await streamPage(2)];
    assert.equal(first.length, 20);
    assert.ok(
      first.every((id) => live.includes(id)),
      'page one: live only',
    );
    assert.deepEqual(
      [...new Set([...first, ...second])].sort(),
      [...live, ...upcoming].sort(),
      'page two: the other five live, then the upcoming ones',
    );
    assert.ok(second.slice(0, 5).every((id) => live.includes(id)));
    assert.ok(second.slice(5).every((id) => upcoming.includes(id)));
    assert.match(await page(visitor, '/search?q=marmalade&type=videos&page=9'), /There are no more results/);
    // Bad pages and kinds are the site's error page, not a 500.
    for (const bad of ['page=0', 'page=51', 'page=x', 'page=1e3', 'type=people', 'type=all&type=videos']) {
      assert.match(await page(visitor, `/search?q=marmalade&${bad}`, 400), /parameter_invalid/, bad);
    }
  });

  test(`${dialect}: the index follows API edits, renames, privacy and streams ending`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 10_000 });
    const seeded = await seedSearchable(server);
    const visitor = newAgent(server.origin);
    const db = server.services.database.db;
    const finds = async (q: string, id: string) => (await page(visitor, `/search?q=${q}`)).includes(id);
    // A search's results are reused for a second (SearchService): a change shows within it.
    const shows = (q: string, id: string, expected = true) =>
      waitFor(async () => (await finds(q, id)) === expected, {
        timeoutMs: 10_000,
        what: `${q} ${expected ? 'finds' : 'no longer finds'} ${id}`,
      });

    // The creator renames the video through the API: the new title finds it, the old does not.
    const patched = await server.request('PATCH', `/v1/videos/${seeded.byTitle}`, {
      key: seeded.bo.writeKey,
      body: { title: 'Obsidian world record', tags: ['tundra'] },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await shows('obsidian', seeded.byTitle);
    await shows('tundra', seeded.byTitle);
    await shows('zephyrine+record', seeded.byTitle, false);
    // Made private: gone; public again: back.
    const hidden = await server.request('PATCH', `/v1/videos/${seeded.byTitle}`, {
      key: seeded.bo.writeKey,
      body: { privacy: 'private' },
    });
    assert.equal(hidden.status, 200);
    await shows('obsidian', seeded.byTitle, false);
    await server.request('PATCH', `/v1/videos/${seeded.byTitle}`, {
      key: seeded.bo.writeKey,
      body: { privacy: 'public' },
    });
    await shows('obsidian', seeded.byTitle);
    // A creator's new name finds their videos, streams and channel; the old name nothing.
    await db.updateTable('users').set({ name: 'Bo Vermilion' }).where('id', '=', seeded.bo.userId).execute();
    const renamed = await page(visitor, '/search?q=vermilion');
    for (const id of [seeded.byTitle, seeded.live, seeded.upcoming, seeded.bo.userId]) {
      assert.ok(renamed.includes(id), `the new name finds ${id}`);
    }
    assert.match(await page(visitor, '/search?q=plain'), /Nothing matches/);
    // A stream that ends leaves the results; counting views does not touch the index.
    await db
      .updateTable('streams')
      .set({ status: 'ended', ended_at: Date.now() })
      .where('id', '=', seeded.live)
      .execute();
    await shows('zephyrine', seeded.live, false);
    await db.updateTable('videos').set({ view_count: 99 }).where('id', '=', seeded.byTag).execute();
    await shows('zephyrine', seeded.byTag);
    // A scheduled stream's time is part of what is shown: moved more than an hour into the past
    // it is no longer upcoming; given a time again it is (SQLite keeps the time in its index).
    const reschedule = (at: number | null) =>
      db.updateTable('streams').set({ scheduled_at: at }).where('id', '=', seeded.upcoming).execute();
    await reschedule(server.clock.now() - 3 * HOUR);
    await shows('zephyrine+soon', seeded.upcoming, false);
    await reschedule(server.clock.now() + 2 * HOUR);
    await shows('zephyrine+soon', seeded.upcoming);
    // The word being typed matches from its first letters, one to three of them too.
    for (const typed of ['z', 'ze', 'zep', 'zeph']) await shows(`stream+${typed}`, seeded.upcoming);
    // A deleted video leaves it too.
    const deleted = await server.request('DELETE', `/v1/videos/${seeded.byTag}`, { key: seeded.bo.writeKey });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await shows('zephyrine', seeded.byTag, false);
  });

  test(`${dialect}: any search text is a page, never a 500 (FTS and tsquery syntax included)`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 100_000 });
    const seeded = await seedSearchable(server);
    const visitor = newAgent(server.origin);
    const hostile = [
      '"',
      '""',
      "'",
      '*',
      'zephyrine*',
      'NEAR(a b)',
      'title:zephyrine',
      '^zephyrine',
      'a AND OR NOT b',
      '(((',
      'a & | ! b',
      "a:* & 'b'",
      '\\',
      '%',
      '\u0000zephyrine',
      'zéphyrine',
      '\u0301',
      '日本語',
      '🙂 zephyrine',
      'a'.repeat(200),
      'x '.repeat(100),
      '-zephyrine',
      'zephyrine OR 1=1; drop table videos; --',
    ];
    const random = prng(20261126);
    for (let i = 0; i < 60; i++) {
      const length = 1 + random.int(40);
      hostile.push(Array.from({ length }, () => String.fromCodePoint(random.int(0x3000))).join(''));
    }
    for (const q of hostile) {
      const response = await visitor.get(`/search?q=${encodeURIComponent(q)}&type=all`);
      const text = await response.text();
      assert.ok(
        response.status === 200 || response.status === 400,
        `${JSON.stringify(q)}: ${response.status}`,
      );
      assert.ok(!text.includes('internal_error'), JSON.stringify(q));
    }
    // The syntax is taken as words: the quoted, starred and column-prefixed forms find the video.
    for (const q of ['"zephyrine"', 'zephyrine:(record)', 'zephyrine*', '🙂 zephyrine']) {
      assert.ok((await page(visitor, `/search?q=${encodeURIComponent(q)}`)).includes(seeded.byTitle), q);
    }
    // Too long is refused with the search page's own message; the table is still there.
    const long = await page(visitor, `/search?q=${'z'.repeat(201)}`, 400);
    assert.match(long, /a search may be up to 200/);
    assert.ok((await page(visitor, '/search?q=zephyrine')).includes(seeded.byTitle));
  });

  test(`${dialect}: the home page heads a signed-in viewer's with what the channels they follow have`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 10_000 });
    const db = server.services.database.db;
    const now = server.clock.now();
    const followed = await server.createAccount('Followed One');
    const other = await server.createAccount('Someone Else');
    const [followedVideo, followedPrivate] = await seedVideos(db, 2, (i) => ({
      creator_id: followed.userId,
      title: `Followed video ${i}`,
      privacy: i === 0 ? 'public' : 'private',
      published_at: now - 30 * 24 * HOUR,
    }));
    const [followedLive] = await seedStreams(db, 1, () => ({
      creator_id: followed.userId,
      title: 'Followed live',
      status: 'live',
      started_at: now - HOUR,
      viewer_count: 3,
      created_at: now - 40 * 24 * HOUR,
    }));
    // Newer than the followed channel's: the general listing shows these first.
    const newer = await seedVideos(db, 14, (i) => ({
      creator_id: other.userId,
      title: `Other video ${i}`,
      published_at: now - i * HOUR,
    }));
    const viewer = await signUp(server.origin, { name: 'Vi', email: 'vi@example.com', password: PASSWORD });

    // No subscriptions: no feed.
    assert.ok(!(await page(viewer, '/')).includes('From channels you follow'));
    const form = await viewer.post(`/channels/${followed.userId}/subscribe`, { next: '/' });
    assert.equal(form.status, 303);

    const home = await page(viewer, '/');
    const feed = /<section class="listing following"[\s\S]*?<\/section>/.exec(home)?.[0] ?? '';
    assert.ok(feed.includes(`href="/watch/${followedLive}"`), 'the live stream in the feed');
    assert.ok(feed.includes(`href="/watch/${followedVideo}"`), 'the video in the feed');
    assertNoneOf(feed, [followedPrivate as string, ...newer], 'the feed');
    assert.ok(home.indexOf('From channels you follow') < home.indexOf('id="live-heading"'), 'the feed first');
    // Then the rest as for everyone, where the followed channel's month-old video is not on page one.
    assert.ok(home.includes(`href="/watch/${newer[0]}"`));

    // Many videos and live streams: the eight newest public videos and the eight most watched
    // public live streams, past the newest (most watched) ones that are private or taken down.
    const busy = await server.createAccount('Busy Channel');
    const videos = await seedVideos(db, 30, (i) => ({
      creator_id: busy.userId,
      title: `Busy video ${i}`,
      privacy: i < 12 && i % 2 === 0 ? 'private' : 'public',
      taken_down_at: i === 1 ? now : null,
      published_at: now - i * 60_000,
    }));
    const streams = await seedStreams(db, 30, (i) => ({
      creator_id: busy.userId,
      title: `Busy live ${i}`,
      status: 'live',
      started_at: now - HOUR,
      viewer_count: 1000 - i,
      privacy: i < 12 && i % 2 === 0 ? 'private' : 'public',
      taken_down_at: i === 3 ? now : null,
    }));
    await viewer.post(`/channels/${busy.userId}/subscribe`, { next: '/' });
    const busyHome = await page(viewer, '/');
    const busyFeed = /<section class="listing following"[\s\S]*?<\/section>/.exec(busyHome)?.[0] ?? '';
    const shownIds = (ids: string[], takenDown: number) =>
      ids.filter((_, i) => !(i < 12 && i % 2 === 0) && i !== takenDown).slice(0, 8);
    assert.deepEqual(
      linked(/id="following-videos"[\s\S]*?<\/ul>/.exec(busyFeed)?.[0] ?? '').filter((id) =>
        id.startsWith('vid_'),
      ),
      shownIds(videos, 1),
      'the newest public videos, in order',
    );
    assert.deepEqual(
      [...new Set(linked(/id="following-live"[\s\S]*?<\/ul>/.exec(busyFeed)?.[0] ?? ''))].filter((id) =>
        id.startsWith('str_'),
      ),
      shownIds(streams, 3),
      'the most watched public live streams, in order',
    );
    await viewer.post(`/channels/${busy.userId}/unsubscribe`, { next: '/' });

    // Not for a visitor, a category's page or a later page; gone after unsubscribing.
    assert.ok(!(await page(newAgent(server.origin), '/')).includes('From channels you follow'));
    assert.ok(!(await page(viewer, '/?category=music')).includes('From channels you follow'));
    await viewer.post(`/channels/${followed.userId}/unsubscribe`, { next: '/' });
    assert.ok(!(await page(viewer, '/')).includes('From channels you follow'));
  });
}
