// The SDK's simulcast methods against the real service: a stream's destinations and the
// channel defaults (copied into the next stream), with the API's refusals as the SDK's typed
// errors. It imports the package by its name, so this runs the committed sdk/dist.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  Tributary,
  type SimulcastTarget,
  type WebhookEvent,
} from '@tributary/sdk';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startTestServer } from '../helpers/server.ts';

const KEY = 'abcd-efgh-ijkl-mnop-w7x9';

/** What a receiver does with a simulcast event: `data` is typed by `type`. */
function describeEvent(event: WebhookEvent): string | undefined {
  if (event.type === 'simulcast_target.failing')
    return `${event.data.name ?? event.data.url}: ${event.data.state_reason ?? ''}`;
  return undefined;
}

for (const dialect of DIALECTS) {
  describe(`SDK simulcast on ${dialect}`, () => {
    test('simulcast.create/list/get/update/delete and simulcast.defaults, with typed errors', async (t) => {
      const clock = new TestClock();
      const server = await startTestServer(t, { dialect, clock });
      const owner = await server.createAccount('owner');
      const stranger = await server.createAccount('stranger');
      const client = new Tributary({ apiKey: owner.writeKey, baseUrl: server.origin });
      const reader = new Tributary({ apiKey: owner.readKey, baseUrl: server.origin });
      const other = new Tributary({ apiKey: stranger.writeKey, baseUrl: server.origin });

      const fallback = await client.simulcast.defaults.create({
        url: 'rtmp://live.twitch.tv/app',
        stream_key: 'live_1_twitchkey',
        name: 'Twitch',
      });
      assert.equal(fallback.stream_id, null);
      assert.equal((await client.simulcast.defaults.list()).data.length, 1);
      assert.equal((await client.simulcast.defaults.get(fallback.id)).name, 'Twitch');

      clock.advance(10);
      const stream = await client.streams.create({ title: 'Simulcast through the SDK' });
      clock.advance(10);
      const added: SimulcastTarget = await client.simulcast.create(stream.id, {
        url: 'rtmp://a.rtmp.youtube.com/live2',
        stream_key: KEY,
        name: 'YouTube',
      });
      assert.equal(added.object, 'simulcast_target');
      assert.equal(added.stream_key_hint, 'w7x9');
      assert.equal(added.state, 'idle');
      assert.equal(JSON.stringify(added).includes(KEY), false);
      const listed = await client.simulcast.list(stream.id);
      assert.deepEqual(
        listed.data.map((target) => target.name),
        ['Twitch', 'YouTube'],
        'the default was copied in first',
      );
      const changed = await client.simulcast.update(stream.id, added.id, { enabled: false, name: null });
      assert.equal(changed.enabled, false);
      assert.equal(changed.name, null);
      assert.deepEqual(await client.simulcast.get(stream.id, added.id), changed);

      const bad = await client.simulcast
        .create(stream.id, { url: 'https://youtube.com/live', stream_key: KEY })
        .catch((e: unknown) => e);
      assert.ok(bad instanceof InvalidRequestError);
      assert.equal(bad.code, 'parameter_invalid');
      assert.equal(bad.param, 'url');
      const hidden = await other.simulcast.get(stream.id, added.id).catch((e: unknown) => e);
      assert.ok(hidden instanceof NotFoundError);
      const readOnly = await reader.simulcast.list(stream.id).catch((e: unknown) => e);
      assert.ok(readOnly instanceof PermissionError);

      for (let i = 0; i < 3; i++) {
        await client.simulcast.create(stream.id, {
          url: 'rtmp://live.example.com/app',
          stream_key: `key-${i}-1234`,
        });
      }
      const full = await client.simulcast
        .create(stream.id, { url: 'rtmp://live.example.com/app', stream_key: 'one-too-many' })
        .catch((e: unknown) => e);
      assert.ok(full instanceof ConflictError);
      assert.equal(full.code, 'simulcast_target_limit_reached');

      assert.deepEqual(await client.simulcast.delete(stream.id, added.id), { deleted: true, id: added.id });
      assert.deepEqual(await client.simulcast.defaults.update(fallback.id, { enabled: false }), {
        ...fallback,
        enabled: false,
        updated_at: (await client.simulcast.defaults.get(fallback.id)).updated_at,
      });
      assert.deepEqual(await client.simulcast.defaults.delete(fallback.id), {
        deleted: true,
        id: fallback.id,
      });
      assert.deepEqual((await client.simulcast.defaults.list()).data, []);

      // A failing event as a receiver would get it, typed by the SDK.
      await server.services.simulcast.recordState(listed.data[0]!.id, {
        state: 'failing',
        reason: 'Connection refused',
        retryInMs: 500,
      });
      const [event] = await server.events('simulcast_target.failing');
      assert.equal(
        describeEvent({ id: 'evt_1', type: 'simulcast_target.failing', created_at: '', data: event!.data }),
        'Twitch: Connection refused',
      );
    });
  });
}
