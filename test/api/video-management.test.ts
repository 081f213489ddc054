// PATCH and DELETE /v1/videos/{id}: the creator's changes, every refusal in the error envelope,
// one outbox event per change, and a deleted video's files and URLs gone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { MediaPaths } from '../../src/media/media-paths.ts';
import { startTestApp, type Account, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';

async function publishVideo(server: TestApp, account: Account, extra: Record<string, unknown> = {}) {
  return server.services.videos.publish({
    creatorId: account.userId,
    title: 'Highlights',
    durationSeconds: 600,
    tags: ['one'],
    ...extra,
  });
}

function assertError(res: { status: number; body: any }, status: number, code: string, param?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.equal(res.body.error.code, code, res.body.error.message);
  assert.equal(typeof res.body.error.message, 'string');
  if (param !== undefined) assert.equal(res.body.error.param, param, res.body.error.message);
}

/** What a video's folder holds once published: a playlist, a segment and a thumbnail. */
function writeMedia(server: TestApp, videoId: string): string {
  const dir = new MediaPaths(server.dataDir).videoDir(videoId);
  fs.mkdirSync(dir, { recursive: true });
  for (const file of ['index.m3u8', 'seg0.ts', 'thumbnail.jpg']) fs.writeFileSync(path.join(dir, file), 'x');
  return dir;
}

for (const dialect of DIALECTS) {
  describe(`video management on ${dialect}`, () => {
    test('PATCH changes only the fields given, returns the detail object and records video.updated once', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const account = await server.createAccount();
      const video = await publishVideo(server, account);
      clock.advance(1000);
      const res = await server.request('PATCH', `/v1/videos/${video.id}`, {
        key: account.writeKey,
        body: {
          title: '  Best of the week  ',
          description: 'All the good bits',
          category: 'music',
          privacy: 'private',
          tags: ['jazz', 'live', 'jazz'],
          chapters: [
            { title: 'Encore', start_seconds: 540 },
            { title: 'Opening', start_seconds: 0 },
          ],
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, video.id);
      assert.equal(res.body.title, 'Best of the week');
      assert.equal(res.body.description, 'All the good bits');
      assert.equal(res.body.category, 'music');
      assert.equal(res.body.privacy, 'private');
      assert.deepEqual(res.body.tags, ['jazz', 'live']);
      assert.deepEqual(res.body.chapters, [
        { title: 'Opening', start_seconds: 0 },
        { title: 'Encore', start_seconds: 540 },
      ]);
      assert.notEqual(res.body.updated_at, res.body.created_at);
      const detail = await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey });
      assert.deepEqual(detail.body, res.body);

      const events = await server.events('video.updated');
      assert.equal(events.length, 1);
      assert.equal(events[0]!.account_id, account.userId);
      assert.deepEqual(events[0]!.data, res.body);

      // One field: the others stay; description null clears it.
      const cleared = await server.request('PATCH', `/v1/videos/${video.id}`, {
        key: account.writeKey,
        body: { description: null },
      });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.description, null);
      assert.equal(cleared.body.title, 'Best of the week');
      assert.equal((await server.events('video.updated')).length, 2);

      // Nothing that differs (or nothing at all): the same object, no event.
      for (const body of [{}, { title: 'Best of the week', privacy: 'private' }]) {
        const same = await server.request('PATCH', `/v1/videos/${video.id}`, { key: account.writeKey, body });
        assert.equal(same.status, 200);
        assert.deepEqual(same.body, cleared.body);
      }
      assert.equal((await server.events('video.updated')).length, 2);
    });

    test('PATCH refuses each invalid field with 400 and the field named, changing nothing', async (t) => {
      const server = await startTestServer(t, { dialect });
      const account = await server.createAccount();
      const video = await publishVideo(server, account);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ title: '   ' }, 'parameter_invalid', 'title'],
        [{ title: 'x'.repeat(121) }, 'parameter_invalid', 'title'],
        [{ title: 7 }, 'parameter_invalid', 'title'],
        [{ description: 'x'.repeat(2001) }, 'parameter_invalid', 'description'],
        [{ category: 'cooking-shows' }, 'parameter_invalid', 'category'],
        [{ privacy: 'secret' }, 'parameter_invalid', 'privacy'],
        [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'parameter_invalid', 'tags'],
        [{ tags: [''] }, 'parameter_invalid', 'tags'],
        [{ chapters: [{ title: 'Late', start_seconds: 601 }] }, 'parameter_invalid', 'chapters'],
        [{ chapters: [{ title: 'Half', start_seconds: 1.5 }] }, 'parameter_invalid', 'chapters'],
        [{ chapters: [{ title: 'Odd', start_seconds: 1, color: 'red' }] }, 'parameter_unknown', 'chapters'],
        [{ view_count: 1000 }, 'parameter_unknown', 'view_count'],
      ];
      for (const [body, code, param] of cases) {
        const res = await server.request('PATCH', `/v1/videos/${video.id}`, { key: account.writeKey, body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.code, code, JSON.stringify(body));
        assert.ok(
          res.body.error.param?.startsWith(param),
          `${JSON.stringify(body)}: ${res.body.error.param}`,
        );
      }
      const detail = await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey });
      assert.equal(detail.body.title, 'Highlights');
      assert.deepEqual(detail.body.tags, ['one']);
      assert.deepEqual(await server.events('video.updated'), []);
    });

    test("who may change or delete: 401 without a key, 403 for a read key before the body, 404 for another account's or a missing video, 409 for a draft", async (t) => {
      const server = await startTestServer(t, { dialect });
      const owner = await server.createAccount('owner');
      const other = await server.createAccount('other');
      const video = await publishVideo(server, owner);
      const draft = await server.services.videos.createDraft({
        creatorId: owner.userId,
        title: 'Processing',
      });
      for (const method of ['PATCH', 'DELETE']) {
        const body = method === 'PATCH' ? { title: 'Mine now' } : undefined;
        const url = `/v1/videos/${video.id}`;
        assertError(await server.request(method, url, { body }), 401, 'authentication_required');
        // Scope is checked before the body is read: a malformed body still gets 403.
        assertError(
          await server.request(method, url, {
            key: owner.readKey,
            rawBody: '{not json',
            headers: { 'content-type': 'application/json' },
          }),
          403,
          'insufficient_scope',
        );
        const theirs = await server.request(method, url, { key: other.writeKey, body });
        const missing = await server.request(method, '/v1/videos/vid_doesnotexist', {
          key: owner.writeKey,
          body,
        });
        assertError(theirs, 404, 'resource_not_found', 'id');
        assertError(missing, 404, 'resource_not_found', 'id');
        assert.equal(
          theirs.body.error.message.replace(video.id, 'ID'),
          missing.body.error.message.replace('vid_doesnotexist', 'ID'),
          'the same answer as a missing video',
        );
        const processing = await server.request(method, `/v1/videos/${draft.id}`, {
          key: owner.writeKey,
          body,
        });
        assertError(processing, 409, 'state_conflict');
        assert.match(processing.body.error.message, /still being processed/);
        // Another account's draft is as missing as anything else of theirs.
        assertError(
          await server.request(method, `/v1/videos/${draft.id}`, { key: other.writeKey, body }),
          404,
          'resource_not_found',
        );
      }
      const detail = await server.request('GET', `/v1/videos/${video.id}`, { key: owner.readKey });
      assert.equal(detail.body.title, 'Highlights');
      assert.deepEqual(
        (await server.events()).filter((e) => e.type !== 'video.published'),
        [],
        'no event for a refused change',
      );
    });

    test('DELETE removes the row, its views and its media folder, records video.deleted once, and every URL of it answers 404', async (t) => {
      // With media: the /media and /watch routes, as `serve` mounts them.
      const server = await startTestApp(t, { dialect, media: {} });
      const account = await server.createAccount();
      const video = await publishVideo(server, account);
      const kept = await publishVideo(server, account, { title: 'Kept' });
      const dir = writeMedia(server, video.id);
      const keptDir = writeMedia(server, kept.id);
      await server.services.database.db
        .insertInto('video_views')
        .values({ video_id: video.id, viewer_hash: 'v1', day: 1, address_hash: 'a1' })
        .execute();
      const media = `/media/videos/${video.id}/index.m3u8`;
      assert.equal((await server.request('GET', media)).status, 200);
      assert.equal((await server.request('GET', `/watch/${video.id}`)).status, 200);

      const res = await server.request('DELETE', `/v1/videos/${video.id}`, { key: account.writeKey });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { deleted: true, id: video.id });

      assert.equal(fs.existsSync(dir), false, 'the media folder is gone');
      assert.equal(fs.existsSync(keptDir), true, "another video's folder stays");
      assertError(
        await server.request('GET', `/v1/videos/${video.id}`, { key: account.readKey }),
        404,
        'resource_not_found',
      );
      for (const file of ['index.m3u8', 'seg0.ts', 'thumbnail.jpg']) {
        assert.equal((await server.request('GET', `/media/videos/${video.id}/${file}`)).status, 404, file);
      }
      assert.equal((await server.request('GET', `/watch/${video.id}`)).status, 404);
      const list = await server.request('GET', '/v1/videos', { key: account.readKey });
      assert.deepEqual(
        list.body.data.map((v: { id: string }) => v.id),
        [kept.id],
      );
      const views = await server.services.database.db.selectFrom('video_views').select('video_id').execute();
      assert.deepEqual(views, []);

      const events = await server.events('video.deleted');
      assert.deepEqual(events, [
        { type: 'video.deleted', account_id: account.userId, data: { id: video.id, deleted: true } },
      ]);
      // A second DELETE: gone for good.
      assertError(
        await server.request('DELETE', `/v1/videos/${video.id}`, { key: account.writeKey }),
        404,
        'resource_not_found',
      );
      assert.equal((await server.events('video.deleted')).length, 1);
    });
  });
}
