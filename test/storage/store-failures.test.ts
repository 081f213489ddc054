// A real gateway failing: killed (a retryable error, not a crash, and the retry helper gets
// through once it is back), wrong credentials and a missing bucket (refused at once, saying what
// to fix). The gateway is this file's own, since it is killed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkMediaStorage } from '../../src/storage/open-storage.ts';
import { videoKey } from '../../src/storage/media-keys.ts';
import { withRetry } from '../../src/storage/retry.ts';
import { S3MediaStorage } from '../../src/storage/s3-storage.ts';
import { StorageError } from '../../src/storage/storage-errors.ts';
import { readAll } from '../../src/storage/digest.ts';
import { SKIP_WITHOUT_RADOSGW, useObjectStore } from '../helpers/object-store.ts';

const skip = SKIP_WITHOUT_RADOSGW;
const objectStore = useObjectStore({ own: true });
const VIDEO = 'vid_Failures0000000000000001';

const quietLog = { info: () => undefined, warn: () => undefined };

test(
  'a killed gateway is a retryable error, and withRetry gets through once it is back',
  { skip },
  async (t) => {
    const storage = await objectStore.storage(t);
    const key = videoKey(VIDEO, 'index.m3u8');
    await storage.put(key, 'before');
    const gateway = objectStore.gateway();
    await gateway.kill();

    for (const operation of [
      () => storage.put(key, 'during'),
      () => storage.get(key),
      () => storage.head(key),
      () => storage.list('videos/'),
      () => storage.deletePrefix('videos/'),
      () => storage.check(),
    ]) {
      await assert.rejects(operation(), (error: unknown) => {
        assert.ok(error instanceof StorageError, String(error));
        assert.equal(error.kind, 'unavailable', error.message);
        assert.equal(error.retryable, true);
        assert.match(error.message, /could not be reached \(ECONNREFUSED/);
        return true;
      });
    }

    // Bounded: with the gateway still down, the helper gives up after its attempts.
    let tries = 0;
    await assert.rejects(
      withRetry(
        () => {
          tries++;
          return storage.head(key);
        },
        { attempts: 3, baseDelayMs: 10 },
      ),
      (error: unknown) => error instanceof StorageError && error.retryable,
    );
    assert.equal(tries, 3);

    // The gateway comes back while a put is being retried.
    const retries: number[] = [];
    const restarted = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      const started = performance.now();
      await gateway.restart();
      t.diagnostic(`radosgw restarted in ${Math.round(performance.now() - started)} ms`);
    })();
    const put = await withRetry(() => storage.put(key, 'after'), {
      attempts: 60,
      baseDelayMs: 100,
      maxDelayMs: 500,
      onRetry: (error, attempt) => {
        assert.equal(error.kind, 'unavailable');
        retries.push(attempt);
      },
    });
    await restarted;
    assert.ok(retries.length >= 1, 'the put failed at least once while the gateway was down');
    assert.equal(put.size, 5);
    const found = await storage.get(key);
    assert.ok(found);
    assert.equal((await readAll(found.body)).toString(), 'after');
  },
);

test(
  'wrong credentials are refused at once, not retried, with a message naming the variables',
  { skip },
  async (t) => {
    const gateway = objectStore.gateway();
    const bucket = await objectStore.freshBucket(t);
    const cases = [
      {
        accessKeyId: gateway.accessKeyId,
        secretAccessKey: 'not-the-secret-0123456789',
        code: 'SignatureDoesNotMatch',
      },
      { accessKeyId: 'no-such-key', secretAccessKey: gateway.secretAccessKey, code: 'InvalidAccessKeyId' },
    ];
    for (const { accessKeyId, secretAccessKey, code } of cases) {
      const storage = new S3MediaStorage({
        endpoint: gateway.endpoint,
        region: gateway.region,
        bucket,
        prefix: '',
        accessKeyId,
        secretAccessKey,
        forcePathStyle: true,
      });
      t.after(() => storage.close());
      let tries = 0;
      await assert.rejects(
        withRetry(
          () => {
            tries++;
            return storage.put(videoKey(VIDEO, 'index.m3u8'), 'x');
          },
          { attempts: 5 },
        ),
        (error: unknown) => {
          assert.ok(error instanceof StorageError, String(error));
          assert.equal(error.kind, 'credentials');
          assert.equal(error.retryable, false);
          assert.equal(error.status, 403);
          assert.equal(error.code, code);
          assert.match(
            error.message,
            new RegExp(
              `credentials were not accepted \\(403 ${code}\\); check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`,
            ),
          );
          assert.ok(!error.message.includes(secretAccessKey), 'the secret is never in the message');
          return true;
        },
      );
      assert.equal(tries, 1, 'not retried');

      // What serve's start check says, and how fast: refused at once, no back-off.
      const started = performance.now();
      await assert.rejects(checkMediaStorage(storage, quietLog), (error: unknown) => {
        assert.ok(error instanceof StorageError);
        assert.match(
          error.message,
          /^MEDIA_STORAGE=s3: the media storage check \(write, read back, delete\) failed/,
        );
        assert.match(error.message, /check failed at the write: .*403/);
        assert.match(error.message, /check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY$/);
        return true;
      });
      assert.ok(performance.now() - started < 5000);
    }
  },
);

test('a bucket that does not exist is refused at once, naming S3_BUCKET', { skip }, async (t) => {
  const storage = await objectStore.storage(t, { bucket: 'no-such-bucket-here' });
  await assert.rejects(storage.put(videoKey(VIDEO, 'index.m3u8'), 'x'), (error: unknown) => {
    assert.ok(error instanceof StorageError);
    assert.equal(error.kind, 'no_bucket');
    assert.equal(error.retryable, false);
    assert.match(error.message, /the bucket does not exist \(404 NoSuchBucket\); check S3_BUCKET/);
    return true;
  });
  await assert.rejects(checkMediaStorage(storage, quietLog), /\(404 NoSuchBucket\); check S3_BUCKET$/);
});
