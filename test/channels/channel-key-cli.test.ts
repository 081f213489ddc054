// The channel key from the operator's side (`tributary ingest show|reset-key`) and its setting
// (CHANNEL_KEY_WINDOW_HOURS), run as the real command on a database file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { runCli } from '../helpers/cli.ts';

test('CHANNEL_KEY_WINDOW_HOURS: 12 unless set, a whole number of hours from 0 to 720', () => {
  assert.equal(loadConfig({ DATABASE_URL: ':memory:' }).ingest.channelKeyWindowHours, 12);
  assert.equal(
    loadConfig({ DATABASE_URL: ':memory:', CHANNEL_KEY_WINDOW_HOURS: '0' }).ingest.channelKeyWindowHours,
    0,
  );
  for (const bad of ['-1', '721', '1.5', 'half a day']) {
    assert.throws(
      () => loadConfig({ DATABASE_URL: ':memory:', CHANNEL_KEY_WINDOW_HOURS: bad }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some((p) =>
          p.startsWith('CHANNEL_KEY_WINDOW_HOURS must be a whole number from 0 to 720'),
        ),
      bad,
    );
  }
});

test('tributary ingest show prints the server and a stable key; reset-key replaces it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-cli-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = { DATABASE_URL: path.join(dir, 'cli.db'), PUBLIC_URL: 'https://tv.example' };
  const user = (await runCli(['users', 'create', '--name', 'Olga'], env)).stdout.trim();

  const shown = await runCli(['ingest', 'show', '--user', user], env);
  assert.equal(shown.code, 0, shown.stderr);
  const [server, key] = shown.stdout.trim().split('\n');
  assert.equal(server, 'server\trtmp://tv.example:1935/live');
  assert.match(key ?? '', /^key\tsk_[0-9A-Za-z]{32}$/);
  const again = await runCli(['ingest', 'show', '--user', user], env);
  assert.equal(again.stdout, shown.stdout, 'the same key every time');

  const reset = await runCli(['ingest', 'reset-key', '--user', user], env);
  assert.equal(reset.code, 0, reset.stderr);
  assert.notEqual(reset.stdout, shown.stdout);
  assert.equal((await runCli(['ingest', 'show', '--user', user], env)).stdout, reset.stdout);

  const missing = await runCli(['ingest', 'show', '--user', 'usr_nobody'], env);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /No user with id 'usr_nobody' exists\./);
  const usage = await runCli(['ingest', 'show'], env);
  assert.notEqual(usage.code, 0);
  assert.match(usage.stderr, /--user/);
});
