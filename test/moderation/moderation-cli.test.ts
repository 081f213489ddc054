// The moderation commands: `users set-role` (by id or email), `users suspend` and `reinstate`,
// and `audit-log`, which prints every operator action the admin area and the CLI took.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { runCli } from '../helpers/cli.ts';

test('set-role, suspend, reinstate and audit-log', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-moderation-cli-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = { DATABASE_URL: path.join(dir, 'cli.db') };
  const runtime = await openRuntime(loadConfig(env));
  t.after(() => runtime.close());
  const op = await runtime.services.logins.createUser({
    name: 'Olga',
    email: 'olga@example.com',
    password: 'a long enough password',
  });
  const creator = (await runCli(['users', 'create', '--name', 'Carl'], env)).stdout.trim();

  const promoted = await runCli(['users', 'set-role', 'OLGA@example.com', 'operator'], env);
  assert.equal(promoted.code, 0, promoted.stderr);
  assert.equal(promoted.stdout, `${op.id} (Olga) is now an operator\n`);
  assert.equal(await runtime.services.moderation.isOperator(op.id), true);

  // Wrong input: a usage error or a clear refusal, never a stack trace.
  const badRole = await runCli(['users', 'set-role', op.id, 'admin'], env);
  assert.notEqual(badRole.code, 0);
  assert.match(badRole.stderr, /The role must be operator or user/);
  const nobody = await runCli(['users', 'set-role', 'nobody@example.com', 'user'], env);
  assert.notEqual(nobody.code, 0);
  assert.match(nobody.stderr, /No user with id 'nobody@example.com'/);
  const noReason = await runCli(['users', 'suspend', creator], env);
  assert.notEqual(noReason.code, 0);
  assert.match(noReason.stderr, /Missing --reason/);
  const badLimit = await runCli(['audit-log', '--limit', '0'], env);
  assert.notEqual(badLimit.code, 0);
  assert.match(badLimit.stderr, /--limit must be 1 to 1000/);

  const suspended = await runCli(['users', 'suspend', creator, '--reason', 'Spam\nagain'], env);
  assert.equal(suspended.code, 0, suspended.stderr);
  const twice = await runCli(['users', 'suspend', creator, '--reason', 'again'], env);
  assert.notEqual(twice.code, 0);
  assert.match(twice.stderr, /already suspended/);
  // An operator acting in the admin area is recorded by name.
  await runtime.services.moderation.reinstate({ id: op.id, name: 'Olga' }, creator, 'Appeal accepted');

  const log = await runCli(['audit-log'], env);
  assert.equal(log.code, 0, log.stderr);
  const lines = log.stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t'));
  assert.deepEqual(
    lines.map(([, who, action, target, reason]) => [who, action, target, reason]),
    [
      [`Olga (${op.id})`, 'user.reinstate', `user ${creator}`, 'Appeal accepted'],
      ['cli', 'user.suspend', `user ${creator}`, 'Spam again'],
      ['cli', 'user.set_role', `user ${op.id}`, 'role user -> operator'],
    ],
  );
  for (const [when] of lines) assert.match(when ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const one = await runCli(['audit-log', '--target', op.id, '--limit', '5'], env);
  assert.equal(one.stdout.trim().split('\n').length, 1);
});
