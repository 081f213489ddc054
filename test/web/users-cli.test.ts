// The operator gives people a login from the CLI: `users create --email` and
// `users set-password`, the password typed or piped in, never on the command line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openRuntime } from '../../src/runtime.ts';
import { runCli } from '../helpers/cli.ts';

const PASSWORD = 'operator-chosen pw';

function tempEnv(t: { after: (fn: () => void) => void }): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-users-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  // Closed sign-ups restrict the web form only, never the operator.
  return { DATABASE_URL: path.join(dir, 'users.db'), SIGNUPS: 'closed' };
}

test('users create --email makes a user who can sign in with the piped password', async (t) => {
  const env = tempEnv(t);
  const created = await runCli(['users', 'create', '--email', 'Op@Example.com', '--name', 'Op'], env, {
    input: `${PASSWORD}\n`,
  });
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^usr_[0-9A-Za-z]{22}\n$/);

  const taken = await runCli(['users', 'create', '--email', 'op@example.com'], env, {
    input: `${PASSWORD}\n`,
  });
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /email_taken/);
  const short = await runCli(['users', 'create', '--email', 'short@example.com'], env, { input: 'short\n' });
  assert.equal(short.code, 1);
  assert.match(short.stderr, /parameter_invalid.*10 to 256 characters/);

  const runtime = await openRuntime(loadConfig(env));
  t.after(() => runtime.close());
  const user = await runtime.services.logins.signIn({
    email: 'op@example.com',
    password: PASSWORD,
    address: '127.0.0.1',
  });
  assert.equal(user.id, created.stdout.trim());
  assert.equal(user.name, 'Op');
});

test('users set-password gives a CLI-made user a login, and changes it later', async (t) => {
  const env = tempEnv(t);
  const id = (await runCli(['users', 'create', '--name', 'Old hand'], env)).stdout.trim();
  const noEmail = await runCli(['users', 'set-password', id], env, { input: `${PASSWORD}\n` });
  assert.equal(noEmail.code, 2, 'a user without an email needs --email');
  assert.match(noEmail.stderr, /--email/);

  const set = await runCli(['users', 'set-password', id, '--email', 'old@example.com'], env, {
    input: `${PASSWORD}\n`,
  });
  assert.equal(set.code, 0, set.stderr);
  assert.equal(set.stdout, `${id} can sign in as old@example.com\n`);
  const changed = await runCli(['users', 'set-password', id], env, { input: 'a brand new password\n' });
  assert.equal(changed.code, 0, changed.stderr);
  const unknown = await runCli(['users', 'set-password', 'usr_nobody'], env, { input: `${PASSWORD}\n` });
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /resource_not_found/);

  const runtime = await openRuntime(loadConfig(env));
  t.after(() => runtime.close());
  const logins = runtime.services.logins;
  await assert.rejects(
    logins.signIn({ email: 'old@example.com', password: PASSWORD, address: '127.0.0.1' }),
    /not right/,
  );
  const user = await logins.signIn({
    email: 'old@example.com',
    password: 'a brand new password',
    address: '127.0.0.1',
  });
  assert.equal(user.id, id);
});
