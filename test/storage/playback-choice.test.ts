// How the origin answers for a video whose media is on a real Ceph RADOS Gateway: with
// S3_PUBLIC_URL, a public video's files are redirected to the public URL (302, cacheable 10 s)
// and the bytes come from there; a private (unlisted) video's are proxied by the origin, never
// redirected, and the bucket's anonymous access cannot list keys. While the store is down the
// origin answers 503 with Retry-After (header and envelope), not 404, and plays again when the
// store is back.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { PutBucketPolicyCommand } from '@aws-sdk/client-s3';
import { videoKey } from '../../src/storage/media-keys.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { SKIP_WITHOUT_RADOSGW, useObjectStore } from '../helpers/object-store.ts';

const objectStore = useObjectStore({ own: true });

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

test(
  'public videos redirect to S3_PUBLIC_URL, private ones are proxied; a store down is 503 with Retry-After',
  {
    skip: SKIP_WITHOUT_RADOSGW,
  },
  async (t) => {
    const gateway = objectStore.gateway();
    const bucket = await objectStore.freshBucket(t);
    // The bucket's own site: anonymous reads of objects by key, no listing.
    await objectStore.client().send(
      new PutBucketPolicyCommand({
        Bucket: bucket,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: '*',
              Action: ['s3:GetObject'],
              Resource: [`arn:aws:s3:::${bucket}/*`],
            },
          ],
        }),
      }),
    );
    const publicBase = `${gateway.endpoint}/${bucket}`;
    const storage = await objectStore.storage(t, { bucket, publicUrl: publicBase });
    const server = await startMediaServer(t, { dialect: 'sqlite', objectStore: storage });
    const account = await server.createAccount();
    const { videos } = server.services;

    const segment = randomBytes(300_000);
    const placed = async (privacy: 'public' | 'private') => {
      const video = await videos.publish({
        creatorId: account.userId,
        title: `A ${privacy} video`,
        durationSeconds: 4,
        privacy,
      });
      await storage.put(videoKey(video.id, 'index.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n', {
        contentType: 'application/vnd.apple.mpegurl',
      });
      await storage.put(videoKey(video.id, 'seg_00000.ts'), segment, { contentType: 'video/mp2t' });
      await videos.setMediaLocation(video.id, 'object');
      return video.id;
    };
    const publicId = await placed('public');
    const privateId = await placed('private');

    // Public: a redirect to the object's public URL, whose bytes are the segment's.
    const redirected = await fetch(`${server.origin}/media/videos/${publicId}/seg_00000.ts`, {
      redirect: 'manual',
    });
    assert.equal(redirected.status, 302);
    assert.equal(redirected.headers.get('location'), `${publicBase}/videos/${publicId}/seg_00000.ts`);
    assert.equal(redirected.headers.get('cache-control'), 'public, max-age=10');
    const fromPublic = await fetch(redirected.headers.get('location') ?? '');
    assert.equal(fromPublic.status, 200);
    assert.equal(sha256(new Uint8Array(await fromPublic.arrayBuffer())), sha256(segment));
    // A player following redirects gets the bytes.
    const followed = await fetch(`${server.origin}/media/videos/${publicId}/seg_00000.ts`);
    assert.equal(sha256(new Uint8Array(await followed.arrayBuffer())), sha256(segment));

    // Private: proxied, streamed by the origin, with its cache headers; never a public URL.
    for (const file of ['index.m3u8', 'seg_00000.ts']) {
      const proxied = await fetch(`${server.origin}/media/videos/${privateId}/${file}`, {
        redirect: 'manual',
      });
      assert.equal(proxied.status, 200, file);
      assert.equal(proxied.headers.get('location'), null);
      assert.equal(
        proxied.headers.get('cache-control'),
        file === 'index.m3u8' ? 'public, max-age=86400' : 'public, max-age=31536000, immutable',
      );
      const body = new Uint8Array(await proxied.arrayBuffer());
      if (file === 'seg_00000.ts') assert.equal(sha256(body), sha256(segment));
    }
    // The ids behind the public URL cannot be listed anonymously.
    const listing = await fetch(`${publicBase}?list-type=2`);
    assert.equal(listing.status, 403);

    // The store down: 503 with Retry-After, for both kinds, not 404.
    await gateway.kill();
    try {
      for (const id of [privateId, publicId]) {
        // The public one is still redirected (the public URL is the CDN's to answer); the
        // private one's proxy cannot reach the store.
        const response = await fetch(`${server.origin}/media/videos/${id}/seg_00000.ts`, {
          redirect: 'manual',
        });
        if (id === publicId) {
          assert.equal(response.status, 302);
          continue;
        }
        assert.equal(response.status, 503);
        assert.equal(response.headers.get('retry-after'), '5');
        const body = (await response.json()) as { error: { code: string; retry_after_seconds: number } };
        assert.equal(body.error.code, 'service_unavailable');
        assert.equal(body.error.retry_after_seconds, 5);
      }
    } finally {
      await gateway.restart();
    }
    const back = await fetch(`${server.origin}/media/videos/${privateId}/seg_00000.ts`);
    assert.equal(back.status, 200);
    assert.equal(sha256(new Uint8Array(await back.arrayBuffer())), sha256(segment));
  },
);
