// A live recording while the object store is down for 60 s, against a real Ceph RADOS Gateway
// (SIGKILLed, restarted on the same port and data) and a real ffmpeg encoder over RTMP: the
// stream ends, its recording is published and plays from local disk while every video.store
// attempt fails; once the gateway is back the recording lands in the bucket, verified, the local
// copy goes, and it plays from the store through the origin: every segment byte for byte,
// every frame with ffmpeg, and in Chromium's hls.js on the watch page, through the origin and
// through the nginx edge of deploy/nginx-edge.conf.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { findJob } from '../../src/jobs/job.repository.ts';
import { videoPrefix } from '../../src/storage/media-keys.ts';
import { VIDEO_STORE_JOB } from '../../src/videos/video.service.ts';
import { edgeCacheStatuses, playsOnEveryHost, startEdgeFor } from '../helpers/edge-playback.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { countVideoFrames, pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { SKIP_WITHOUT_RADOSGW, useObjectStore } from '../helpers/object-store.ts';

const objectStore = useObjectStore({ own: true });
const DOWN_MS = 60_000;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

test(
  'the store down for 60 s as a live recording is stored: nothing lost, stored and played once it is back',
  {
    skip: SKIP_WITHOUT_RADOSGW,
    timeout: 300_000,
  },
  async (t) => {
    const gateway = objectStore.gateway();
    let down = false;
    t.after(async () => {
      if (down) await gateway.restart();
    });
    const storage = await objectStore.storage(t);
    const server = await startMediaServer(t, {
      dialect: 'sqlite',
      reconnectWindowSeconds: 60,
      objectStore: storage,
      // Tried every few seconds while the store is down (production backs off to 5 minutes).
      storeRetryDelaysMs: [3_000, 3_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000, 5_000],
    });
    const account = await server.createAccount('Recording Studio');
    const stream = await server.createStream(account, { title: 'Recorded while the store is down' });
    const push = pushTestPattern(`${stream.ingest.rtmp_url}/${stream.ingest.stream_key}`, 120);
    t.after(() => {
      push.stop();
    });
    await waitFor(
      'a few seconds packaged',
      async () =>
        (await server.request('GET', `/v1/streams/${stream.id}`, { key: account.readKey })).body
          .thumbnail_url !== null,
      { timeoutMs: 60_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 4_000));

    await gateway.kill();
    down = true;
    const killedAt = Date.now();
    const ended = await server.request('POST', `/v1/streams/${stream.id}/end`, { key: account.writeKey });
    assert.equal(ended.status, 200);
    const published = await waitFor(
      'the recording published',
      async () => (await server.events('video.published')).find((e) => e.data.source_stream_id === stream.id),
      { timeoutMs: 60_000 },
    );
    const videoId = published.data.id as string;
    const folder = path.join(server.dataDir, 'media', 'videos', videoId);
    const localFiles = fs
      .readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
    const localDigests = new Map(
      localFiles.map((file) => [file, sha256(fs.readFileSync(path.join(folder, file)))]),
    );
    assert.ok(localFiles.some((file) => file.endsWith('.ts')));

    // While the store is down: the job fails and is retried; the video plays from disk.
    const job = () => findJob(server.services.database.db, VIDEO_STORE_JOB, videoId);
    await waitFor('a failed attempt', async () => ((await job())?.attempts ?? 0) >= 2 || undefined, {
      timeoutMs: 60_000,
    });
    assert.equal(await server.services.videos.mediaLocation(videoId), 'local');
    const detail = await server.request('GET', `/v1/videos/${videoId}`, { key: account.readKey });
    const playback = detail.body.playback_url as string;
    assert.equal((await fetch(playback)).status, 200, 'plays from disk while the store is down');
    const remaining = DOWN_MS - (Date.now() - killedAt);
    if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
    const before = await job();
    assert.equal(before?.status === 'done', false, 'not stored while the store was down');
    assert.ok(fs.existsSync(folder), 'the local copy stays until the store holds it');

    await gateway.restart();
    down = false;
    const stored = await waitFor(
      'the recording stored',
      async () => {
        const row = await job();
        return row?.status === 'done' || row?.status === 'failed' ? row : undefined;
      },
      { timeoutMs: 90_000 },
    );
    assert.equal(stored.status, 'done', stored.last_error ?? '');
    assert.ok(stored.attempts >= 3, `attempts: ${stored.attempts}`);
    assert.equal(await server.services.videos.mediaLocation(videoId), 'object');
    assert.equal(fs.existsSync(folder), false);

    // Nothing lost: every file is in the store and served through the origin, byte for byte.
    const page = await storage.list(videoPrefix(videoId));
    assert.deepEqual(
      page.items.map((item) => item.key.slice(videoPrefix(videoId).length)).sort(),
      [...localDigests.keys()].sort(),
    );
    for (const [file, digest] of localDigests) {
      const response = await fetch(`${server.origin}/media/videos/${videoId}/${file}`);
      assert.equal(response.status, 200, file);
      assert.equal(sha256(new Uint8Array(await response.arrayBuffer())), digest, file);
    }
    assert.ok((await countVideoFrames(playback)) > 25, 'ffmpeg decodes it from the store');

    // Through the tested nginx edge (deploy/nginx-edge.conf) too: the second fetch is its cache's.
    const hosts = [server.origin];
    const edge = await startEdgeFor(t, server.origin);
    if (edge !== undefined) {
      const segment = [...localDigests.keys()].find((file) => file.endsWith('.ts')) ?? '';
      assert.deepEqual(
        await edgeCacheStatuses(`${edge}/media/videos/${videoId}/${segment}`),
        ['MISS', 'HIT'],
        'the edge caches what the origin proxied from the store',
      );
      const response = await fetch(`${edge}/media/videos/${videoId}/${segment}`);
      assert.equal(sha256(new Uint8Array(await response.arrayBuffer())), localDigests.get(segment));
      assert.ok(
        (await countVideoFrames(`${edge}/media/videos/${videoId}/index.m3u8`)) > 25,
        'ffmpeg decodes it through the edge',
      );
      hosts.push(edge);
    }

    // Chromium's hls.js plays the watch page from the store, through the origin and the edge.
    await playsOnEveryHost(t, hosts, videoId);
  },
);
