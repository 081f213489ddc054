// The viewer's pages over real HTTP on both databases: what the home and channel pages list
// (never a private or unpublished item, on any page, filter or channel), their refusals, and
// subscribing through the form and the script's JSON variant (idempotent, one event each,
// CSRF-checked, never for oneself).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Db } from '../../src/db/database.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { seedStreams, seedVideos } from '../helpers/seed.ts';
import { newAgent, signUp, type WebAgent } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;

interface Catalogue {
  creatorId: string;
  listed: { live: string; upcoming: string; video: string; gamingVideo: string; gamingLive: string };
  hidden: string[];
  olderVideos: string[];
}

/** One creator's items: public ones to list, and private, unpublished or standby ones never to. */
async function seedCatalogue(server: TestApp, creatorId: string): Promise<Catalogue> {
  const db: Db = server.services.database.db;
  const now = server.clock.now();
  const [live, privateLive, gamingLive, privateGamingLive] = await seedStreams(db, 4, (i) => ({
    creator_id: creatorId,
    title: `Live ${i}`,
    status: 'live',
    viewer_count: 10 + i,
    started_at: now - HOUR,
    privacy: i % 2 === 0 ? 'public' : 'private',
    category: i < 2 ? 'talk' : 'gaming',
    created_at: now - 10 * HOUR + i,
  }));
  const [upcoming, privateUpcoming, standby] = await seedStreams(db, 3, (i) => ({
    creator_id: creatorId,
    title: `Upcoming ${i}`,
    status: 'scheduled',
    privacy: i === 1 ? 'private' : 'public',
    scheduled_at: i === 2 ? null : now + 24 * HOUR,
    created_at: now - 9 * HOUR + i,
  }));
  // Thirteen public videos make two pages of twelve; private and unpublished ones in between.
  const publicVideos = await seedVideos(db, 13, (i) => ({
    creator_id: creatorId,
    title: `Video ${i}`,
    category: i === 12 ? 'gaming' : 'music',
    published_at: now - 100 * HOUR + i * HOUR,
  }));
  const hiddenVideos = await seedVideos(db, 3, (i) => ({
    creator_id: creatorId,
    title: `Hidden video ${i}`,
    category: 'gaming',
    privacy: i === 2 ? 'public' : 'private',
    published_at: i === 2 ? null : now - 50 * HOUR,
  }));
  const ids = { live, privateLive, gamingLive, privateGamingLive, upcoming, privateUpcoming, standby };
  for (const [name, id] of Object.entries(ids)) assert.ok(id, name);
  return {
    creatorId,
    listed: {
      live: live as string,
      upcoming: upcoming as string,
      video: publicVideos[11] as string,
      gamingVideo: publicVideos[12] as string,
      gamingLive: gamingLive as string,
    },
    hidden: [privateLive, privateGamingLive, privateUpcoming, standby, ...hiddenVideos] as string[],
    olderVideos: publicVideos.slice(0, 1),
  };
}

async function page(agent: WebAgent, path: string, status = 200): Promise<string> {
  const response = await agent.get(path);
  const text = await response.text();
  assert.equal(response.status, status, `${path}: ${text.slice(0, 300)}`);
  if (status === 200) {
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  }
  return text;
}

function assertNoneOf(text: string, ids: readonly string[], where: string) {
  for (const id of ids) assert.ok(!text.includes(id), `${where} lists ${id}`);
}

/** The `href` of the "More videos" link, unescaped. */
function moreLink(text: string): string {
  const href = /<a class="button button-secondary" rel="next" href="([^"]+)"/.exec(text)?.[1];
  assert.ok(href, 'a More videos link');
  return href.replace(/&amp;/g, '&');
}

for (const dialect of DIALECTS) {
  test(`${dialect}: home and channel pages list public items only, filtered and paged`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 1000 });
    const creator = await server.createAccount('Ada <Lovelace>');
    const seeded = await seedCatalogue(server, creator.userId);
    // The creator is signed in too: a listing is not the direct link, even for the owner.
    const visitor = newAgent(server.origin);

    const home = await page(visitor, '/');
    assert.match(home, /<h2 id="live-heading">Live now<\/h2>/);
    for (const id of [
      seeded.listed.live,
      seeded.listed.gamingLive,
      seeded.listed.upcoming,
      seeded.listed.video,
    ]) {
      assert.ok(home.includes(`href="/watch/${id}"`), `home links ${id}`);
    }
    assert.ok(
      home.indexOf(seeded.listed.live) < home.indexOf(seeded.listed.upcoming),
      'live before upcoming',
    );
    assert.ok(
      home.indexOf(seeded.listed.upcoming) < home.indexOf(seeded.listed.video),
      'upcoming before videos',
    );
    assert.match(home, /10 viewers/, 'viewer counts shown');
    assert.match(home, /Ada &lt;Lovelace&gt;/, 'the creator name, escaped');
    assert.ok(!home.includes('Ada <Lovelace>'));
    assert.ok(home.includes(`href="/channels/${creator.userId}"`), 'links to the channel');
    assertNoneOf(home, seeded.hidden, 'home');
    assertNoneOf(home, seeded.olderVideos, 'the first page');

    // The second page: the thirteenth video, no live or upcoming section, still nothing private.
    const second = await page(visitor, moreLink(home));
    assert.ok(second.includes(seeded.olderVideos[0] as string));
    assert.ok(!second.includes('Live now'));
    assertNoneOf(second, [...seeded.hidden, seeded.listed.video], 'the second page');

    const gaming = await page(visitor, '/?category=gaming');
    assert.match(gaming, /<a class="chip" href="\/\?category=gaming"\s+aria-current="page"\s*>Gaming<\/a/);
    assert.ok(gaming.includes(seeded.listed.gamingLive));
    assert.ok(gaming.includes(seeded.listed.gamingVideo));
    assertNoneOf(gaming, [seeded.listed.live, seeded.listed.video, seeded.listed.upcoming], 'gaming');
    assertNoneOf(gaming, seeded.hidden, 'gaming');

    const owner = await signUp(server.origin, { name: 'Bo', email: 'bo@example.com', password: PASSWORD });
    const channel = await page(owner, `/channels/${creator.userId}`);
    assert.match(channel, /<h1 id="channel-name">\s*Ada &lt;Lovelace&gt;\s*<\/h1>/);
    assert.match(channel, /0 subscribers/);
    for (const id of [
      seeded.listed.live,
      seeded.listed.gamingLive,
      seeded.listed.upcoming,
      seeded.listed.video,
    ]) {
      assert.ok(channel.includes(`href="/watch/${id}"`), `channel links ${id}`);
    }
    assertNoneOf(channel, seeded.hidden, 'the channel');
    const channelSecond = await page(owner, moreLink(channel));
    assert.ok(channelSecond.includes(seeded.olderVideos[0] as string));
    assertNoneOf(channelSecond, seeded.hidden, "the channel's second page");

    // Another creator's channel lists none of the first one's items.
    const other = await server.createAccount('Cy');
    const empty = await page(visitor, `/channels/${other.userId}`);
    assert.match(empty, /Nobody is live right now\./);
    assert.match(empty, /No videos yet\./);
    assertNoneOf(empty, [seeded.listed.live, seeded.listed.video], 'an empty channel');
  });

  test(`${dialect}: bad filters, cursors and channels are error pages, not 500s`, async (t) => {
    const server = await startTestApp(t, { dialect, rateLimitPerIp: 1000 });
    const creator = await server.createAccount('Ada');
    await seedVideos(server.services.database.db, 13, () => ({ creator_id: creator.userId }));
    const visitor = newAgent(server.origin);
    assert.match(await page(visitor, '/?category=nope', 400), /parameter_invalid/);
    assert.match(await page(visitor, '/?after=cur_forged', 400), /invalid_cursor/);
    assert.match(await page(visitor, '/?category=a&category=b', 400), /parameter_invalid/);
    assert.match(await page(visitor, '/channels/usr_nobody', 404), /resource_not_found/);
    assert.match(await page(visitor, `/channels/${'x'.repeat(65)}`, 400), /parameter_invalid/);
    // A cursor is bound to its list and filters.
    const next = moreLink(await page(visitor, '/'));
    const cursor = new URLSearchParams(next.split('?')[1]).get('after') ?? '';
    assert.match(await page(visitor, `/?category=music&after=${cursor}`, 400), /invalid_cursor/);
    assert.match(await page(visitor, `/channels/${creator.userId}?after=${cursor}`, 400), /invalid_cursor/);
    // Unknown query parameters (a shared link's) are tolerated.
    await page(visitor, '/?utm_source=mail');
  });

  test(`${dialect}: subscribing by form and by script is idempotent, CSRF-checked and emits one event each`, async (t) => {
    // Its own clock, moved so the cancellation's event sorts after the subscription's.
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock, rateLimitPerIp: 1000 });
    const creatorAgent = await signUp(server.origin, {
      name: 'Ada',
      email: 'ada@example.com',
      password: PASSWORD,
    });
    const viewer = await signUp(server.origin, { name: 'Bo', email: 'bo@example.com', password: PASSWORD });
    const users = await server.services.database.db.selectFrom('users').select(['id', 'email']).execute();
    const creatorId = users.find((user) => user.email === 'ada@example.com')?.id ?? '';
    const viewerId = users.find((user) => user.email === 'bo@example.com')?.id ?? '';
    const channelPath = `/channels/${creatorId}`;
    const events = async () =>
      (await server.events()).filter((event) => event.type.startsWith('subscription.'));

    const before = await page(viewer, channelPath);
    assert.match(
      before,
      new RegExp(`<form class="subscribe-form" method="post" action="${channelPath}/subscribe">`),
    );
    assert.match(before, /name="_csrf" value="[^"]+"/);

    // Both routes refuse a missing or wrong token and a cross-site request: nothing is written.
    for (const action of ['subscribe', 'unsubscribe']) {
      const refusals: [string, Record<string, string>, Record<string, string>][] = [
        ['no token', { _csrf: '' }, {}],
        ['a wrong token', { _csrf: 'forged' }, {}],
        ['another origin', {}, { origin: 'https://evil.example' }],
        ['a cross-site fetch', {}, { 'sec-fetch-site': 'cross-site' }],
      ];
      for (const [what, form, headers] of refusals) {
        const refused = await viewer.post(`${channelPath}/${action}`, form, headers);
        assert.equal(refused.status, 403, `${action} with ${what}`);
        assert.match(await refused.text(), /csrf_failed/);
      }
    }
    assert.deepEqual(await events(), []);

    const subscribed = await viewer.post(`${channelPath}/subscribe`, { next: channelPath });
    assert.equal(subscribed.status, 303);
    assert.equal(subscribed.headers.get('location'), channelPath);
    const after = await page(viewer, channelPath);
    assert.match(after, /1 subscriber\s*</);
    assert.match(after, new RegExp(`action="${channelPath}/unsubscribe"`));
    assert.match(after, />\s*Unsubscribe\s*</);

    // Again, by form (a resent form) and by script (JSON): still one subscription, one event.
    const again = await viewer.post(`${channelPath}/subscribe`, { next: 'https://evil.example/' });
    assert.equal(again.headers.get('location'), channelPath, 'an off-site next falls back to the channel');
    const json = await viewer.post(`${channelPath}/subscribe`, {}, { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.deepEqual(await json.json(), { subscribed: true, subscribers: 1 });
    const created = await events();
    assert.equal(created.length, 1);
    const [event] = created;
    assert.ok(event);
    assert.equal(event.type, 'subscription.created');
    assert.equal(event.account_id, creatorId);
    assert.equal(event.data.viewer_id, viewerId);
    assert.equal(event.data.status, 'active');

    const state = await viewer.get(`${channelPath}/subscription`, { accept: 'application/json' });
    const stateBody = (await state.json()) as Record<string, unknown>;
    assert.equal(stateBody.subscribed, true);
    assert.equal(stateBody.subscribers, 1);
    assert.equal(stateBody.signed_in, true);
    assert.equal(stateBody.csrf_token, await viewer.csrf(channelPath));

    clock.advance(1000);
    const cancelled = await viewer.post(`${channelPath}/unsubscribe`, {}, { accept: 'application/json' });
    assert.deepEqual(await cancelled.json(), { subscribed: false, subscribers: 0 });
    const cancelledAgain = await viewer.post(`${channelPath}/unsubscribe`, { next: '/watch/str_x' });
    assert.equal(cancelledAgain.headers.get('location'), '/watch/str_x');
    const all = await events();
    assert.deepEqual(
      all.map((event) => event.type),
      ['subscription.created', 'subscription.cancelled'],
    );
    assert.equal(all[1]?.data.id, all[0]?.data.id);
    assert.match(await page(viewer, channelPath), /0 subscribers/);

    // The creator sees no button on their own channel, and cannot subscribe to themselves.
    const own = await page(creatorAgent, channelPath);
    assert.ok(!own.includes('subscribe-form'));
    assert.match(own, /This is your channel\./);
    const self = await creatorAgent.post(`${channelPath}/subscribe`, {});
    assert.equal(self.status, 400);
    assert.match(await self.text(), /parameter_invalid/);

    // A visitor is sent to sign in; an unknown channel is a 404.
    const visitor = newAgent(server.origin);
    assert.match(await page(visitor, channelPath), /Sign in to subscribe/);
    const anonymous = await visitor.post(`${channelPath}/subscribe`, {});
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location') ?? '', /^\/sign-in\?next=/);
    const unknown = await viewer.post('/channels/usr_nobody/subscribe', {});
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
    assert.equal((await events()).length, 2);
  });
}
