import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { TestClock } from '../helpers/clock.ts';
import { startTestServer } from '../helpers/server.ts';

const LIST_FIELDS = [
  'category',
  'created_at',
  'creator_id',
  'description',
  'duration_seconds',
  'id',
  'privacy',
  'published_at',
  'source_stream_id',
  'thumbnail_url',
  'title',
  'video_url',
  'view_count',
];
const DETAIL_FIELDS = [...LIST_FIELDS, 'chapters', 'playback_url', 'tags', 'updated_at'].sort();

for (const dialect of DIALECTS) {
  describe(`videos on ${dialect}`, () => {
    test('a published video appears in the list with the list fields and in detail with all fields', async (t) => {
      const clock = new TestClock(Date.parse('2026-11-22T09:00:00.000Z'));
      const server = await startTestServer(t, { dialect, clock });
      const account = await server.createAccount();
      const stream = await server.services.streams.create(account.userId, { title: 'Source' });
      const video = await server.services.videos.publish({
        creatorId: account.userId,
        title: 'Highlights',
        durationSeconds: 3600,
        sourceStreamId: stream.stream.id,
        category: 'gaming',
        tags: ['speedrun', 'speedrun', 'pb'],
        chapters: [
          { title: 'Boss', start_seconds: 1800 },
          { title: 'Intro', start_seconds: 0 },
        ],
      });

      const list = await server.request('GET', '/v1/videos', { key: account.readKey });
      assert.equal(list.status, 200);
      assert.deepEqual(Object.keys(list.body), ['data', 'pagination']);
      assert.equal(list.body.data.length, 1);
      assert.deepEqual(Object.keys(list.body.data[0]).sort(), LIST_FIELDS);

      const detail = await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey });
      assert.equal(detail.status, 200);
      assert.deepEqual(Object.keys(detail.body).sort(), DETAIL_FIELDS);
      assert.deepEqual(detail.body, {
        ...list.body.data[0],
        playback_url: `http://media.test/media/videos/${video.id}/index.m3u8`,
        chapters: [
          { title: 'Intro', start_seconds: 0 },
          { title: 'Boss', start_seconds: 1800 },
        ],
        tags: ['speedrun', 'pb'],
        updated_at: '2026-11-22T09:00:00.000Z',
      });
      assert.equal(detail.body.source_stream_id, stream.stream.id);
      assert.equal(detail.body.duration_seconds, 3600);
      assert.equal(detail.body.view_count, 0);
      assert.equal(detail.body.description, null);
      assert.equal(detail.body.published_at, '2026-11-22T09:00:00.000Z');
      assert.equal(detail.body.video_url, `http://media.test/watch/${video.id}`);

      const [event] = await server.services.database.db
        .selectFrom('events')
        .select(['type', 'data'])
        .execute();
      assert.equal(event?.type, 'video.published');
      assert.deepEqual(JSON.parse(event.data), detail.body);
    });

    test('a directly uploaded video has defaults: no source stream, empty chapters and tags', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const video = await server.services.videos.publish({
        creatorId: account.userId,
        title: 'Upload',
        durationSeconds: 5,
      });
      const detail = await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey });
      assert.equal(detail.body.source_stream_id, null);
      assert.deepEqual(detail.body.chapters, []);
      assert.deepEqual(detail.body.tags, []);
    });

    test('private videos are unlisted; filters by creator and category; newest first', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const alice = await server.createAccount('Alice');
      const bob = await server.createAccount('Bob');
      const publish = async (
        creatorId: string,
        title: string,
        extra: { privacy?: 'private'; category?: string } = {},
      ) => {
        clock.advance(1000);
        return (await server.services.videos.publish({ creatorId, title, durationSeconds: 10, ...extra })).id;
      };
      const a1 = await publish(alice.userId, 'a1', { category: 'music' });
      const a2 = await publish(alice.userId, 'a2 private', { privacy: 'private' });
      const b1 = await publish(bob.userId, 'b1', { category: 'music' });
      const b2 = await publish(bob.userId, 'b2');

      const ids = async (key: string, query = '') =>
        (await server.request('GET', `/v1/videos${query}`, { key })).body.data.map(
          (v: { id: string }) => v.id,
        );
      assert.deepEqual(await ids(alice.readKey), [b2, b1, a2, a1]);
      assert.deepEqual(await ids(bob.readKey), [b2, b1, a1]);
      assert.deepEqual(await ids(bob.readKey, `?creator_id=${alice.userId}`), [a1]);
      assert.deepEqual(await ids(bob.readKey, '?category=music'), [b1, a1]);
      const direct = await server.request('GET', `/v1/videos/${a2}`, { key: bob.readKey });
      assert.equal(direct.status, 200);
      assert.equal(direct.body.privacy, 'private');
    });

    test('a missing video is 404 resource_not_found, and publishing checks its input', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const other = await server.createAccount('Other');
      const res = await server.request('GET', '/v1/videos/vid_missing', { key: account.readKey });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'resource_not_found');
      const videos = server.services.videos;
      await assert.rejects(videos.publish({ creatorId: 'usr_nobody', title: 't', durationSeconds: 1 }), {
        code: 'resource_not_found',
      });
      await assert.rejects(videos.publish({ creatorId: account.userId, title: ' ', durationSeconds: 1 }), {
        code: 'parameter_invalid',
      });
      await assert.rejects(videos.publish({ creatorId: account.userId, title: 't', durationSeconds: -1 }), {
        code: 'parameter_invalid',
      });
      await assert.rejects(
        videos.publish({ creatorId: account.userId, title: 't', durationSeconds: 1, category: 'nope' }),
        { code: 'parameter_invalid' },
      );
      await assert.rejects(
        videos.publish({
          creatorId: account.userId,
          title: 't',
          durationSeconds: 10,
          chapters: [{ title: 'late', start_seconds: 11 }],
        }),
        { code: 'parameter_invalid' },
      );
      const foreign = await server.services.streams.create(other.userId, { title: 'Theirs' });
      await assert.rejects(
        videos.publish({
          creatorId: account.userId,
          title: 't',
          durationSeconds: 1,
          sourceStreamId: foreign.stream.id,
        }),
        { code: 'parameter_invalid' },
      );
      const count = await server.services.database.db.selectFrom('videos').select('id').execute();
      assert.equal(count.length, 0);
    });
  });
}
