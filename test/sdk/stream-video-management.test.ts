// The SDK's methods for changing, ending and deleting streams and videos, against the real
// service with its delivery worker: the events they cause reach a real HTTPS receiver, once
// each, verified with the SDK's own verify.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  Tributary,
  type WebhookEvent,
} from '@tributary/sdk';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { startWebhookServer } from '../webhooks/harness.ts';

for (const dialect of DIALECTS) {
  describe(`SDK stream and video management on ${dialect}`, () => {
    test('streams.update/end/delete and videos.update/delete, each change delivered once as a webhook event', async (t) => {
      const { server } = await startWebhookServer(t, { dialect });
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const owner = await server.createAccount('owner');
      const stranger = await server.createAccount('stranger');
      const client = new Tributary({ apiKey: owner.writeKey, baseUrl: server.origin });
      const other = new Tributary({ apiKey: stranger.writeKey, baseUrl: server.origin });
      const hook = await client.webhooks.create({
        url: receiver.url(),
        events: ['stream.updated', 'stream.deleted', 'stream.ended', 'video.updated', 'video.deleted'],
      });
      await receiver.waitForRequests(1); // the ping

      const stream = await client.streams.create({ title: 'Before', record: false });
      const renamed = await client.streams.update(stream.id, { title: 'After', latency_mode: 'low' });
      assert.equal(renamed.title, 'After');
      assert.equal(renamed.latency_mode, 'low');
      assert.equal(renamed.ingest?.stream_key, stream.ingest?.stream_key);
      const notLive = await client.streams.end(stream.id).catch((e: unknown) => e);
      assert.ok(notLive instanceof ConflictError);
      assert.equal(notLive.code, 'state_conflict');
      await server.services.streams.goLive(stream.id);
      const tooLate = await client.streams
        .update(stream.id, { latency_mode: 'normal' })
        .catch((e: unknown) => e);
      assert.ok(tooLate instanceof ConflictError);
      const ended = await client.streams.end(stream.id);
      assert.equal(ended.status, 'ended');
      const hidden = await other.streams.delete(stream.id).catch((e: unknown) => e);
      assert.ok(hidden instanceof NotFoundError);

      const video = await server.services.videos.publish({
        creatorId: owner.userId,
        title: 'Clip',
        durationSeconds: 30,
      });
      const bad = await client.videos
        .update(video.id, { chapters: [{ title: 'Late', start_seconds: 31 }] })
        .catch((e: unknown) => e);
      assert.ok(bad instanceof InvalidRequestError);
      assert.equal(bad.param, 'chapters');
      const changed = await client.videos.update(video.id, { tags: ['b', 'a', 'b'], privacy: 'private' });
      assert.deepEqual(changed.tags, ['b', 'a']);
      assert.equal(changed.privacy, 'private');
      assert.deepEqual(await client.videos.delete(video.id), { deleted: true, id: video.id });
      assert.ok((await client.videos.get(video.id).catch((e: unknown) => e)) instanceof NotFoundError);

      // Not recorded, so nothing waits on its recording once it has ended.
      assert.deepEqual(await client.streams.delete(stream.id), { deleted: true, id: stream.id });

      await receiver.waitForRequests(6);
      const events: WebhookEvent[] = [];
      for (const request of receiver.requests.slice(1)) {
        events.push(await Tributary.webhooks.verify(request.rawBody, request.headers, hook.secret));
      }
      assert.deepEqual(events.map((e) => e.type).sort(), [
        'stream.deleted',
        'stream.ended',
        'stream.updated',
        'video.deleted',
        'video.updated',
      ]);
      // Each once: the outbox holds exactly the five, all delivered.
      assert.deepEqual(
        (await server.events())
          .map((e) => e.type)
          .filter((type) => type !== 'ping' && type !== 'stream.started' && type !== 'video.published')
          .sort(),
        events.map((e) => e.type).sort(),
      );
      for (const event of events) {
        if (event.type === 'stream.updated') assert.equal(event.data.title, 'After');
        if (event.type === 'video.updated') assert.deepEqual(event.data, changed);
        if (event.type === 'video.deleted') assert.deepEqual(event.data, { id: video.id, deleted: true });
        if (event.type === 'stream.deleted') assert.deepEqual(event.data, { id: stream.id, deleted: true });
      }
    });
  });
}
