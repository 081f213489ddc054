// `npm start` as an operator runs it: a real process, its terminal output, its JSON logs,
// and graceful shutdown.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT, runCli } from '../helpers/cli.ts';

interface Started {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['src/main.ts', 'serve'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', RTMP_PORT: '0', HOST: '127.0.0.1', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  for (let i = 0; i < 100 && !/API listening at (\S+)/.test(output); i++) await sleep(100);
  const match = /API listening at (\S+)/.exec(output);
  if (!match?.[1]) {
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${output}`);
  }
  return { child, baseUrl: match[1], output: () => output, exited };
}

describe('the server process', () => {
  test('`tributary` runs Node with the environment and flags of `npm start`', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const start = manifest.scripts.start;
    const launcher = start.slice(0, start.indexOf(' src/main.ts'));
    assert.match(launcher, /\bnode\b/);
    const shebang = fs.readFileSync(path.join(REPO_ROOT, 'bin/tributary.js'), 'utf8').split('\n')[0];
    assert.equal(shebang, `#!/usr/bin/env -S ${launcher}`);
  });

  test('first start prints a demo account whose keys work; no key ever reaches the logs', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-proc-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const env = { DATABASE_URL: path.join(dir, 'db', 'tributary.db') };
    const server = await startServer(env);
    t.after(() => server.child.kill('SIGKILL'));

    const writeKey = /write key: (tk_\S+)/.exec(server.output())?.[1] ?? '';
    const readKey = /read key: {2}(tk_\S+)/.exec(server.output())?.[1] ?? '';
    assert.match(writeKey, /^tk_/);
    assert.match(readKey, /^tk_/);
    assert.match(server.output(), /curl -s -X POST/);
    // The port was chosen by the OS; the printed base URL carries the real one.
    assert.match(server.baseUrl, /^http:\/\/localhost:\d+\/v1$/);
    assert.ok(
      fs.existsSync(path.join(dir, 'db', 'secret.key')),
      'the master secret is generated beside the database',
    );

    const created = await fetch(`${server.baseUrl}/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'From the demo key' }),
    });
    assert.equal(created.status, 201);
    const stream = (await created.json()) as { id: string; ingest: { stream_key: string } };
    const list = await fetch(`${server.baseUrl}/streams`, {
      headers: { authorization: `Bearer ${readKey}` },
    });
    assert.equal(list.status, 200);
    await fetch(`${server.baseUrl}/streams`, { headers: { authorization: 'Bearer tk_guess' } });

    // A key revoked from the CLI stops working in the running server within a second.
    const userId = /user: +(usr_\S+)/.exec(server.output())?.[1] ?? '';
    const keys = await runCli(['keys', 'list', '--user', userId], env);
    const readKeyId = keys.stdout
      .split('\n')
      .find((line) => line.includes(`...${readKey.slice(-4)}`))
      ?.split('\t')[0];
    assert.equal((await runCli(['keys', 'revoke', readKeyId ?? ''], env)).code, 0);
    await sleep(1000);
    const revoked = await fetch(`${server.baseUrl}/streams`, {
      headers: { authorization: `Bearer ${readKey}` },
    });
    assert.equal(revoked.status, 401);

    // A restart does not make a second demo account.
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    const logLines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    assert.ok(logLines.length >= 4);
    const requests = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');
    assert.ok(requests.length >= 4);
    for (const entry of requests) assert.match(String(entry.reqId), /^req_/);
    // The id a client was given finds its request's line.
    const revokedLine = requests.find((l) => l.reqId === revoked.headers.get('x-request-id'));
    assert.equal(revokedLine?.status, 401);
    // Lines logged in the last turn before exit are written too.
    assert.equal(JSON.parse(logLines.at(-1) ?? '{}').msg, 'stopped');
    for (const line of logLines) {
      for (const secret of [writeKey, readKey, 'tk_guess', stream.ingest.stream_key]) {
        assert.equal(line.includes(secret), false, `a log line carries a secret: ${line}`);
      }
    }
    const second = await startServer(env);
    t.after(() => second.child.kill('SIGKILL'));
    assert.equal(/write key/.test(second.output()), false);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  test('SIGTERM lets an in-flight request finish, then exits cleanly', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-proc-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const server = await startServer({ DATABASE_URL: path.join(dir, 't.db') });
    t.after(() => server.child.kill('SIGKILL'));
    const writeKey = /write key: (tk_\S+)/.exec(server.output())?.[1] ?? '';
    const body = JSON.stringify({ title: 'Slow upload' });
    const url = new URL(`${server.baseUrl}/streams`);

    // Send the headers and half the body, signal, then finish the body.
    const response = new Promise<number>((resolve, reject) => {
      const request = http.request(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${writeKey}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.write(body.slice(0, 8));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => request.end(body.slice(8)), 300);
      }, 300);
    });
    assert.equal(await response, 201);
    assert.equal(await server.exited, 0);
    assert.match(server.output(), /"msg":"stopped"/);
  });

  test('a busy RTMP port turns ingest off with a clear message; the API still serves', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-proc-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '0.0.0.0', resolve));
    t.after(() => squatter.close());
    const busyPort = (squatter.address() as net.AddressInfo).port;
    const server = await startServer({ DATABASE_URL: path.join(dir, 't.db'), RTMP_PORT: String(busyPort) });
    t.after(() => server.child.kill('SIGKILL'));
    assert.match(
      server.output(),
      new RegExp(`Live ingest and media are OFF: RTMP_PORT ${busyPort} is already in use`),
    );
    const writeKey = /write key: (tk_\S+)/.exec(server.output())?.[1] ?? '';
    const res = await fetch(`${server.baseUrl}/streams`, {
      headers: { authorization: `Bearer ${writeKey}` },
    });
    assert.equal(res.status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });
});
