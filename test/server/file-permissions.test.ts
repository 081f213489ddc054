// The data folder holds the database, the master secret and every recording: other local
// users must not read any of it, whatever umask the operator's shell had.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { describeModeChange, tightenToOwnerOnly } from '../../src/shared/owner-only.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import { pushTestPattern, waitFor } from '../helpers/media-tools.ts';

interface Started {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

/** `tributary serve` under a shell whose umask would leave new files readable by everyone. */
async function startUnderPermissiveUmask(env: Record<string, string>, args: string[] = []): Promise<Started> {
  const child = spawn(
    'sh',
    ['-c', 'umask 022; exec "$0" src/main.ts serve "$@"', process.execPath, ...args],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', PORT: '0', RTMP_PORT: '0', HOST: '127.0.0.1', ...env },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    await waitFor('the API to listen', () => /API listening at \S+/.test(output), { timeoutMs: 15_000 });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${output}`, { cause: error });
  }
  return { child, output: () => output, exited };
}

function modeOf(file: string): string {
  return (fs.statSync(file).mode & 0o7777).toString(8).padStart(4, '0');
}

function tempParent(t: { after: (fn: () => void) => void }): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-perm-'));
  t.after(() => {
    fs.rmSync(parent, { recursive: true, force: true });
  });
  return parent;
}

async function stop(server: Started): Promise<void> {
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.output());
}

describe('files the server writes are owner-only', () => {
  test('a fresh data folder, its database, secret and live media are created 0700/0600', async (t) => {
    const dataDir = path.join(tempParent(t), 'data');
    const server = await startUnderPermissiveUmask({ DATABASE_URL: path.join(dataDir, 'tributary.db') });
    t.after(() => server.child.kill('SIGKILL'));
    // The banner may arrive in more than one write: its ingest line and the demo key come after.
    const whole = () => /RTMP ingest at /.test(server.output()) && /write key: tk_\S+/.test(server.output());
    // Bounded; if it never comes, the assertions below show the output.
    await waitFor('the whole banner', whole, { timeoutMs: 15_000 }).catch(() => undefined);
    const baseUrl = /API listening at (\S+)/.exec(server.output())?.[1] ?? '';
    const writeKey = /write key: (tk_\S+)/.exec(server.output())?.[1] ?? '';
    const rtmpPort = /RTMP ingest at rtmp:\/\/[^:]+:(\d+)\//.exec(server.output())?.[1];
    assert.ok(rtmpPort, `ingest is on:\n${server.output()}`);

    const created = await fetch(`${baseUrl}/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Private files' }),
    });
    assert.equal(created.status, 201);
    const stream = (await created.json()) as { id: string; ingest: { stream_key: string } };
    const push = pushTestPattern(`rtmp://127.0.0.1:${rtmpPort}/live/${stream.ingest.stream_key}`, 6, {
      size: '320x240',
    });
    t.after(() => {
      push.stop();
    });
    const publishDir = path.join(dataDir, 'media', 'streams', stream.id, 'p0');
    const segment = await waitFor(
      'a first segment',
      () => fs.readdirSync(publishDir).find((name) => name.endsWith('.ts')),
      { timeoutMs: 20_000 },
    );
    push.stop();

    const expected: [string, string][] = [
      [dataDir, '0700'],
      [path.join(dataDir, 'tributary.db'), '0600'],
      [path.join(dataDir, 'tributary.db-wal'), '0600'],
      [path.join(dataDir, 'tributary.db-shm'), '0600'],
      [path.join(dataDir, 'secret.key'), '0600'],
      [path.join(dataDir, 'media'), '0700'],
      [path.join(dataDir, 'media', 'streams'), '0700'],
      [path.join(dataDir, 'media', 'streams', stream.id), '0700'],
      [publishDir, '0700'],
      // Written by ffmpeg, which inherits the server's umask.
      [path.join(publishDir, segment), '0600'],
    ];
    for (const [file, mode] of expected) assert.equal(modeOf(file), mode, file);
    await stop(server);
  });

  test('an existing data folder and files left readable by others are tightened at start, and it says so', async (t) => {
    const dataDir = path.join(tempParent(t), 'data');
    fs.mkdirSync(dataDir);
    fs.chmodSync(dataDir, 0o755);
    const database = path.join(dataDir, 'tributary.db');
    // An empty file is an empty SQLite database; the secret as an older version left it.
    fs.writeFileSync(database, '');
    fs.writeFileSync(path.join(dataDir, 'secret.key'), `${'cd'.repeat(32)}\n`);
    fs.mkdirSync(path.join(dataDir, 'media'));
    for (const file of [database, path.join(dataDir, 'secret.key')]) fs.chmodSync(file, 0o644);
    fs.chmodSync(path.join(dataDir, 'media'), 0o755);

    const server = await startUnderPermissiveUmask({ DATABASE_URL: database }, ['--no-ingest']);
    t.after(() => server.child.kill('SIGKILL'));
    for (const [file, mode] of [
      [dataDir, '0700'],
      [database, '0600'],
      [`${database}-wal`, '0600'],
      [`${database}-shm`, '0600'],
      [path.join(dataDir, 'secret.key'), '0600'],
      [path.join(dataDir, 'media'), '0700'],
    ] as const) {
      assert.equal(modeOf(file), mode, file);
    }
    assert.match(server.output(), new RegExp(`${dataDir.replaceAll('/', '\\/')}.*0755.*0700`));
    assert.match(server.output(), /secret\.key.*0644.*0600/);
    await stop(server);
  });

  test('a shared scratch folder (sticky, like /tmp) named as the data folder is left open, and it says so', (t) => {
    const shared = path.join(tempParent(t), 'scratch');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    const secret = path.join(shared, 'secret.key');
    fs.writeFileSync(secret, 'x');
    fs.chmodSync(secret, 0o644);
    const changes = tightenToOwnerOnly([shared, secret, path.join(shared, 'missing')]);
    assert.equal(modeOf(shared), '1777');
    assert.equal(modeOf(secret), '0600');
    assert.deepEqual(
      changes.map((change) => [change.path, change.error === undefined]),
      [
        [shared, false],
        [secret, true],
      ],
    );
    assert.match(
      describeModeChange(changes[0]!),
      /scratch is readable by others \(1777\).*a folder of its own/,
    );
  });
});
