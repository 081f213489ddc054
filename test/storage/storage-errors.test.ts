// How store failures are classified (retryable or not) and how the retry helper treats them.
// Unit tests: the SDK's errors as the SDK shapes them, and a stand-in HTTP server for answers a
// real gateway cannot be made to give on demand (503 SlowDown, 500). The real gateway's
// failures (killed, wrong credentials) are in store-failures.test.ts.
import assert from 'node:assert/strict';
import http from 'node:http';
import { test, type TestContext } from 'node:test';
import { backoffDelay, withRetry } from '../../src/storage/retry.ts';
import { S3MediaStorage } from '../../src/storage/s3-storage.ts';
import { fromFsError, fromS3Error, StorageError } from '../../src/storage/storage-errors.ts';

const WHERE = { store: 'S3 bucket "b" at http://s3.test', operation: 'put', key: 'videos/vid_1/a.ts' };

/** An error as the SDK throws it for an HTTP answer: a named exception with $metadata. */
function serviceError(status: number, name: string, message = name): Error {
  return Object.assign(new Error(message), {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  });
}

/** A network error as Node's HTTP client throws it (no answer, so no status). */
function networkError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code, $metadata: { attempts: 3 } });
}

test('S3 errors: network, 5xx and throttling are retryable; credentials and refusals are not', () => {
  const cases: [unknown, StorageError['kind'], boolean][] = [
    [networkError('ECONNREFUSED'), 'unavailable', true],
    [networkError('ECONNRESET'), 'unavailable', true],
    [networkError('ETIMEDOUT'), 'unavailable', true],
    [networkError('EAI_AGAIN'), 'unavailable', true],
    [
      Object.assign(new Error('Connection timed out after 5000 ms'), { name: 'TimeoutError' }),
      'unavailable',
      true,
    ],
    [serviceError(500, 'InternalError'), 'unavailable', true],
    [serviceError(502, 'Unknown'), 'unavailable', true],
    [serviceError(503, 'ServiceUnavailable'), 'unavailable', true],
    [serviceError(504, 'GatewayTimeout'), 'unavailable', true],
    [serviceError(400, 'RequestTimeout'), 'unavailable', true],
    [serviceError(503, 'SlowDown'), 'throttled', true],
    [serviceError(429, 'TooManyRequests'), 'throttled', true],
    [serviceError(403, 'InvalidAccessKeyId'), 'credentials', false],
    [serviceError(403, 'SignatureDoesNotMatch'), 'credentials', false],
    [serviceError(403, 'AccessDenied'), 'credentials', false],
    [serviceError(400, 'ExpiredToken'), 'credentials', false],
    [serviceError(403, 'RequestTimeTooSkewed'), 'credentials', false],
    [serviceError(403, 'Forbidden'), 'credentials', false],
    [serviceError(404, 'NoSuchBucket'), 'no_bucket', false],
    [serviceError(404, 'NoSuchKey'), 'not_found', false],
    [serviceError(404, 'NotFound'), 'not_found', false],
    [serviceError(416, 'InvalidRange'), 'invalid_range', false],
    [serviceError(400, 'InvalidArgument'), 'rejected', false],
    [serviceError(411, 'MissingContentLength'), 'rejected', false],
    [Object.assign(new Error('aborted'), { name: 'AbortError' }), 'aborted', false],
  ];
  for (const [error, kind, retryable] of cases) {
    const mapped = fromS3Error(error, WHERE);
    const label = `${(error as Error).name} ${(error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? ''}`;
    assert.ok(mapped instanceof StorageError);
    assert.equal(mapped.kind, kind, label);
    assert.equal(mapped.retryable, retryable, label);
    assert.equal(mapped.operation, 'put');
    assert.equal(mapped.key, 'videos/vid_1/a.ts');
    assert.equal(mapped.cause, error);
    assert.ok(
      mapped.message.startsWith('S3 bucket "b" at http://s3.test: put "videos/vid_1/a.ts"'),
      mapped.message,
    );
  }
  const refused = fromS3Error(serviceError(403, 'InvalidAccessKeyId'), WHERE);
  assert.match(
    refused.message,
    /credentials were not accepted \(403 InvalidAccessKeyId\); check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
  );
  assert.equal(refused.status, 403);
  assert.equal(refused.code, 'InvalidAccessKeyId');
  assert.match(
    fromS3Error(networkError('ECONNREFUSED'), WHERE).message,
    /could not be reached \(ECONNREFUSED/,
  );
  assert.match(fromS3Error(serviceError(404, 'NoSuchBucket'), WHERE).message, /check S3_BUCKET/);
  // Already classified: passed through.
  assert.equal(fromS3Error(refused, WHERE), refused);
});

test('file-system errors: a full disk may pass, a missing file or a refusal will not', () => {
  const fsError = (code: string) => Object.assign(new Error(`${code}: something`), { code });
  const where = { store: 'media folder /srv/media', operation: 'put', key: 'videos/vid_1/a.ts' };
  assert.equal(fromFsError(fsError('ENOSPC'), where).retryable, true);
  assert.equal(fromFsError(fsError('EMFILE'), where).retryable, true);
  assert.equal(fromFsError(fsError('ENOENT'), where).kind, 'not_found');
  assert.equal(fromFsError(fsError('EACCES'), where).retryable, false);
  assert.equal(fromFsError(fsError('EISDIR'), where).kind, 'rejected');
});

function unavailable(): StorageError {
  return new StorageError('down', { kind: 'unavailable', operation: 'put' });
}

test('withRetry: bounded attempts, only retryable errors, exponential back-off with jitter', async () => {
  const pauses: number[] = [];
  const sleep = (ms: number) => {
    pauses.push(ms);
    return Promise.resolve();
  };
  let calls = 0;
  await assert.rejects(
    withRetry(
      () => {
        calls++;
        return Promise.reject(unavailable());
      },
      { attempts: 4, baseDelayMs: 100, maxDelayMs: 1000, sleep, random: () => 1 - Number.EPSILON },
    ),
    (error: unknown) => error instanceof StorageError && error.kind === 'unavailable',
  );
  assert.equal(calls, 4, 'four attempts, then the last error');
  assert.deepEqual(pauses, [100, 200, 400], 'doubling (random at its top)');

  // Succeeds once the failure passes, telling onRetry of each failure.
  const told: number[] = [];
  const value = await withRetry(
    (attempt) => (attempt < 3 ? Promise.reject(unavailable()) : Promise.resolve(`on attempt ${attempt}`)),
    { sleep, onRetry: (_error, attempt) => told.push(attempt) },
  );
  assert.equal(value, 'on attempt 3');
  assert.deepEqual(told, [1, 2]);

  // Not retryable, or not a StorageError at all (a bug): thrown at once.
  for (const error of [
    new StorageError('refused', { kind: 'credentials', operation: 'put' }),
    new TypeError('a bug'),
  ]) {
    let tries = 0;
    await assert.rejects(
      withRetry(
        () => {
          tries++;
          return Promise.reject(error);
        },
        { attempts: 5, sleep },
      ),
      (thrown: unknown) => thrown === error,
    );
    assert.equal(tries, 1);
  }

  // An aborted signal stops the retries.
  const controller = new AbortController();
  let aborted = 0;
  await assert.rejects(
    withRetry(
      () => {
        aborted++;
        controller.abort();
        return Promise.reject(unavailable());
      },
      { attempts: 5, signal: controller.signal, sleep },
    ),
  );
  assert.equal(aborted, 1);
});

test('backoffDelay: capped, jittered between half and all, at least 1 s after throttling', () => {
  const at = (attempt: number, random: number, throttled = false) =>
    backoffDelay(attempt, { baseDelayMs: 200, maxDelayMs: 5000, throttled, random: () => random });
  assert.equal(at(1, 0), 100);
  assert.equal(at(1, 0.999999), 200);
  assert.equal(at(3, 0), 400);
  assert.equal(at(10, 0.999999), 5000, 'capped');
  assert.equal(at(1, 0, true), 500, 'throttled: half of at least 1 s');
  assert.equal(at(1, 0.999999, true), 1000);
});

/** A stand-in S3 endpoint answering every request with one status and S3 error code. */
async function answering(t: TestContext, status: number, code: string): Promise<string> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(status, { 'Content-Type': 'application/xml' });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code} here</Message></Error>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

function storeAt(t: TestContext, endpoint: string): S3MediaStorage {
  const storage = new S3MediaStorage({
    endpoint,
    region: 'us-east-1',
    bucket: 'media',
    prefix: '',
    accessKeyId: 'id',
    secretAccessKey: 'secret',
    forcePathStyle: true,
    maxAttempts: 1,
  });
  t.after(() => storage.close());
  return storage;
}

test('an S3 endpoint answering 503 SlowDown is throttling, retryable; 500 is unavailable', async (t) => {
  const slow = storeAt(t, await answering(t, 503, 'SlowDown'));
  await assert.rejects(slow.put('videos/vid_1/a.ts', 'x'), (error: unknown) => {
    assert.ok(error instanceof StorageError);
    assert.equal(error.kind, 'throttled');
    assert.equal(error.retryable, true);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'SlowDown');
    return true;
  });
  const broken = storeAt(t, await answering(t, 500, 'InternalError'));
  await assert.rejects(broken.list('videos/'), (error: unknown) => {
    assert.ok(error instanceof StorageError);
    assert.equal(error.kind, 'unavailable');
    assert.equal(error.retryable, true);
    return true;
  });
  // A HEAD answer has no body to name a code: the status alone decides.
  await assert.rejects(
    slow.head('videos/vid_1/a.ts'),
    (error: unknown) => error instanceof StorageError && error.retryable,
  );
});
