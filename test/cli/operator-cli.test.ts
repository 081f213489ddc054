import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';

function tempDatabase(t: { after: (fn: () => void) => void }): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-cli-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { DATABASE_URL: path.join(dir, 'cli.db') };
}

describe('the tributary command', () => {
  test('users and keys: create prints the id or the key alone; list and revoke manage them', async (t) => {
    const env = tempDatabase(t);
    const user = await runCli(['users', 'create', '--name', 'Alice'], env);
    assert.equal(user.code, 0, user.stderr);
    assert.match(user.stdout, /^usr_[0-9A-Za-z]{22}\n$/);
    const userId = user.stdout.trim();

    const key = await runCli(['keys', 'create', '--user', userId, '--scope', 'write'], env);
    assert.equal(key.code, 0, key.stderr);
    assert.match(key.stdout, /^tk_[0-9A-Za-z]{32}\n$/);
    const token = key.stdout.trim();

    const list = await runCli(['keys', 'list', '--user', userId], env);
    assert.equal(list.code, 0);
    const [line] = list.stdout.trim().split('\n');
    const [keyId, scope, hint, , state] = (line ?? '').split('\t');
    assert.match(keyId ?? '', /^key_/);
    assert.equal(scope, 'write');
    assert.equal(hint, `...${token.slice(-4)}`);
    assert.equal(state, 'active');
    assert.equal(list.stdout.includes(token), false, 'the key itself is never shown again');

    const revoke = await runCli(['keys', 'revoke', keyId ?? ''], env);
    assert.equal(revoke.code, 0);
    const after = await runCli(['keys', 'list', '--user', userId], env);
    assert.match(after.stdout, /\trevoked 20/);
  });

  test('the stream lifecycle, videos and subscriptions, each recording its event', async (t) => {
    const env = tempDatabase(t);
    const creator = (await runCli(['users', 'create', '--name', 'Creator'], env)).stdout.trim();
    const viewer = (await runCli(['users', 'create', '--name', 'Viewer'], env)).stdout.trim();
    const runtime = await openRuntime(loadConfig(env));
    t.after(() => runtime.close());
    const { stream } = await runtime.services.streams.create(creator, { title: 'Operator show' });

    assert.equal((await runCli(['streams', 'go-live', stream.id], env)).code, 0);
    const viewers = await runCli(['streams', 'viewers', stream.id, '12'], env);
    assert.equal(viewers.code, 0, viewers.stderr);
    assert.equal((await runCli(['streams', 'end', stream.id], env)).code, 0);
    const ended = await runtime.services.streams.get(stream.id);
    assert.equal(ended.status, 'ended');
    assert.equal(ended.peak_viewer_count, 12);

    const again = await runCli(['streams', 'go-live', stream.id], env);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /state_conflict/);

    const video = await runCli(
      [
        'videos',
        'publish',
        '--creator',
        creator,
        '--title',
        'Best of',
        '--duration',
        '125',
        '--source-stream',
        stream.id,
        '--category',
        'music',
        '--private',
        '--tag',
        'live',
        '--chapter',
        '60 Second half',
      ],
      env,
    );
    assert.equal(video.code, 0, video.stderr);
    assert.match(video.stdout, /^vid_[0-9A-Za-z]{22}\n$/);
    const published = await runtime.services.videos.get(video.stdout.trim(), creator);
    assert.equal(published.privacy, 'private');
    assert.equal(published.duration_seconds, 125);
    assert.equal(published.source_stream_id, stream.id);
    assert.deepEqual(JSON.parse(published.chapters), [{ start_seconds: 60, title: 'Second half' }]);

    const sub = await runCli(['subscriptions', 'create', '--viewer', viewer, '--creator', creator], env);
    assert.equal(sub.code, 0, sub.stderr);
    assert.match(sub.stdout, /^sub_/);
    assert.equal((await runCli(['subscriptions', 'cancel', sub.stdout.trim()], env)).code, 0);

    const events = await runtime.services.database.db
      .selectFrom('events')
      .select(['type', 'account_id'])
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      events.map((e) => e.type),
      ['stream.started', 'stream.ended', 'video.published', 'subscription.created', 'subscription.cancelled'],
    );
    assert.ok(events.every((e) => e.account_id === creator));
  });

  test('--help explains each command; bad arguments fail with a message and a non-zero exit', async (t) => {
    const env = tempDatabase(t);
    const overview = await runCli(['--help'], env);
    assert.equal(overview.code, 0);
    for (const command of [
      'serve',
      'users create',
      'keys create',
      'keys revoke',
      'streams go-live',
      'videos publish',
      'subscriptions cancel',
    ]) {
      assert.ok(overview.stdout.includes(`tributary ${command}`), command);
    }
    const help = await runCli(['keys', 'create', '--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /--scope read\|write/);

    const cases: [string[], RegExp][] = [
      [['frobnicate'], /Unknown command/],
      [['keys', 'create', '--user', 'usr_x'], /Missing --scope/],
      [['keys', 'create', '--user', 'usr_x', '--scope', 'admin'], /--scope must be read or write/],
      [['keys', 'create', '--scope', 'read', '--user', 'usr_nobody'], /resource_not_found/],
      [['streams', 'viewers', 'str_x', 'many'], /COUNT must be a whole number/],
      [['streams', 'end'], /Missing STR/],
      [['videos', 'publish', '--creator', 'usr_x', '--title', 'T'], /Missing --duration/],
      [
        ['videos', 'publish', '--creator', 'usr_x', '--title', 'T', '--duration', '5', '--chapter', 'late'],
        /--chapter must look like/,
      ],
      [['users', 'create', '--colour', 'blue'], /Unknown option '--colour'/],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(args, env);
      assert.notEqual(res.code, 0, args.join(' '));
      assert.match(res.stderr, message, args.join(' '));
      assert.equal(res.stderr.includes('    at '), false, 'no stack trace');
    }
  });

  test('invalid configuration stops the command with a message naming the variable', async (t) => {
    const env = tempDatabase(t);
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT must be a whole number/],
      [{ DATABASE_URL: 'mysql://localhost/db' }, /DATABASE_URL must be/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
      [{ RATE_LIMIT_PER_KEY: '0' }, /RATE_LIMIT_PER_KEY must be/],
      [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be an absolute/],
      [{ SECRET_KEY: 'short' }, /SECRET_KEY must be 64 hexadecimal/],
      [{ WEBHOOK_RETRY_DELAYS: '1m,soon' }, /WEBHOOK_RETRY_DELAYS must be/],
    ];
    // Each is refused while reading the configuration, before the database is opened, so they
    // can run side by side.
    const results = await Promise.all(cases.map(([bad]) => runCli(['users', 'create'], { ...env, ...bad })));
    for (const [i, [bad, message]] of cases.entries()) {
      const res = results[i] as CliResult;
      assert.equal(res.code, 2, JSON.stringify(bad));
      assert.match(res.stderr, message);
    }
    assert.equal(fs.existsSync(env.DATABASE_URL ?? ''), false, 'no database was made');
  });
});
