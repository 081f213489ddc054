// MEDIA_STORAGE and the S3_ variables: read and validated with the rest of the configuration,
// every bad or missing value reported by name (src/config.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

const BASE = { DATABASE_URL: ':memory:' };
const S3 = {
  ...BASE,
  MEDIA_STORAGE: 's3',
  S3_ENDPOINT: 'http://127.0.0.1:7480/',
  S3_BUCKET: 'tributary-media',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret/with+chars',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems;
  }
  assert.fail('the configuration was accepted');
}

test('the local disk by default', () => {
  assert.deepEqual(loadConfig(BASE).storage, { kind: 'local' });
  assert.deepEqual(loadConfig({ ...BASE, MEDIA_STORAGE: 'local' }).storage, { kind: 'local' });
});

test('MEDIA_STORAGE=s3 with the required variables; defaults for the rest', () => {
  assert.deepEqual(loadConfig(S3).storage, {
    kind: 's3',
    endpoint: 'http://127.0.0.1:7480',
    region: 'us-east-1',
    bucket: 'tributary-media',
    prefix: '',
    accessKeyId: 'AKIAEXAMPLE',
    secretAccessKey: 'secret/with+chars',
    forcePathStyle: true,
    publicUrl: undefined,
  });
  const full = loadConfig({
    ...S3,
    S3_REGION: 'eu-central-1',
    S3_PREFIX: 'site-a/media',
    S3_FORCE_PATH_STYLE: 'false',
    S3_PUBLIC_URL: 'https://cdn.example.com/',
  }).storage;
  assert.equal(full.kind, 's3');
  assert.equal(full.region, 'eu-central-1');
  assert.equal(full.prefix, 'site-a/media/', 'a prefix ends in /');
  assert.equal(full.forcePathStyle, false);
  assert.equal(full.publicUrl, 'https://cdn.example.com');
  // AWS S3 itself (no endpoint): virtual-hosted URLs unless told otherwise.
  const aws = loadConfig({ ...S3, S3_ENDPOINT: '' }).storage;
  assert.equal(aws.kind === 's3' && aws.endpoint, undefined);
  assert.equal(aws.kind === 's3' && aws.forcePathStyle, false);
});

test('missing S3 variables are each named', () => {
  assert.deepEqual(problems({ ...BASE, MEDIA_STORAGE: 's3' }), [
    'S3_BUCKET is required with MEDIA_STORAGE=s3 (the bucket media is kept in)',
    "S3_ACCESS_KEY_ID is required with MEDIA_STORAGE=s3 (the access key's id)",
    "S3_SECRET_ACCESS_KEY is required with MEDIA_STORAGE=s3 (the access key's secret)",
  ]);
});

test('invalid values are each reported, all at once', () => {
  assert.deepEqual(
    problems({
      ...S3,
      MEDIA_STORAGE: 's3',
      S3_ENDPOINT: 'ftp://store',
      S3_REGION: 'EU West',
      S3_BUCKET: 'Media_Bucket',
      S3_PREFIX: '/abs/../x',
      S3_FORCE_PATH_STYLE: 'sometimes',
      S3_PUBLIC_URL: 'cdn.example.com',
    }).map((problem) => problem.split(' ')[0]),
    ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_PREFIX', 'S3_FORCE_PATH_STYLE', 'S3_PUBLIC_URL'],
  );
  assert.deepEqual(problems({ ...BASE, MEDIA_STORAGE: 'minio' }), [
    'MEDIA_STORAGE must be one of local, s3 (got "minio")',
  ]);
  for (const bucket of ['ab', 'a'.repeat(64), '-media', 'media-', 'my..media', 'MEDIA']) {
    assert.match(problems({ ...S3, S3_BUCKET: bucket })[0] ?? '', /^S3_BUCKET must be a bucket name/, bucket);
  }
  for (const prefix of ['a//b', '.hidden/', 'a b/']) {
    assert.match(
      problems({ ...S3, S3_PREFIX: prefix })[0] ?? '',
      /^S3_PREFIX must be empty or path segments/,
      prefix,
    );
  }
});

test('S3 variables without MEDIA_STORAGE=s3 are refused rather than silently unused', () => {
  assert.deepEqual(problems({ ...BASE, S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:7480' }), [
    'S3_ENDPOINT, S3_BUCKET are set but MEDIA_STORAGE is not s3: set MEDIA_STORAGE=s3 to keep media in the bucket, or unset them',
  ]);
});

test('the secret never appears in a configuration problem', () => {
  const secret = 'very-secret-value-0123456789';
  const text = problems({ ...S3, S3_SECRET_ACCESS_KEY: secret, S3_BUCKET: 'X' }).join('\n');
  assert.ok(!text.includes(secret));
});
