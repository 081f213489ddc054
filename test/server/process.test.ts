// `npm start` as an operator runs it: a real process, its terminal output, its JSON logs,
// and graceful shutdown, whichever documented way starts it.
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { REPO_ROOT, runCli } from '../helpers/cli.ts';
import { pause, waitFor } from '../helpers/wait.ts';
import { newAgent } from '../helpers/web.ts';

interface Started {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  /** stdout and stderr as they arrived, interleaved. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `command args` with stdout and stderr as pipes and waits until the server has said
 * everything it says on starting: the API's address, ingest's, and on an empty database
 * (`fresh`, the default) the demo account, whose last line names the read key.
 */
async function start(
  command: string,
  args: string[],
  env: Record<string, string>,
  fresh = true,
): Promise<Started> {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', RTMP_PORT: '0', HOST: '127.0.0.1', ...env },
  });
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  let exitedYet = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exitedYet = true;
      resolve(code);
    }),
  );
  let baseUrl: string;
  try {
    baseUrl = await waitFor(
      () => {
        if (exitedYet) throw new Error('it exited');
        if (!/RTMP ingest at |Live ingest and media are OFF/.test(output)) return undefined;
        if (fresh && !/curl -s \S+ -H 'Authorization: Bearer tk_\S+'\n/.test(stderr)) return undefined;
        return /API listening at (\S+)/.exec(output)?.[1];
      },
      { what: 'the server to start', timeoutMs: 30_000, failOnError: true },
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`server did not start (${String(error)}):\n${output}`, { cause: error });
  }
  return {
    child,
    baseUrl,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
  };
}

function startServer(env: Record<string, string>, fresh = true): Promise<Started> {
  return start(process.execPath, ['src/main.ts', 'serve'], env, fresh);
}

function tempDir(t: TestContext): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-proc-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** PATH as a user's shell has it: without the project's node_modules/.bin. */
function userPath(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(
      (dir) => !dir.includes(`${path.sep}node_modules${path.sep}`) && !dir.endsWith('node_modules/.bin'),
    )
    .join(path.delimiter);
}

/** The processes below `pid`, children first (a process's parent is field 4 of /proc/PID/stat). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers kill(0); its state in /proc says it is dead.
    return !/^\d+ \(.*\) [ZX]/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The process running the server: the one whose command line names the program. */
function serverProcess(pids: number[]): { pid: number; argv: string[]; env: Map<string, string> } {
  for (const pid of pids.toReversed()) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!argv.some((arg) => /src\/main\.ts$|tributary(\.js)?$/.test(arg))) continue;
      const env = new Map(
        fs
          .readFileSync(`/proc/${pid}/environ`, 'utf8')
          .split('\0')
          .filter(Boolean)
          .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
      );
      return { pid, argv, env };
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no server among ${pids.join(', ')}`);
}

async function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => {
      resolve(true);
    });
  });
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not happen within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the server the way `command args` does, sends `signal` to that first process (as a
 * process manager stops what it started) and checks the server inside stopped gracefully.
 */
async function stopsGracefully(
  t: TestContext,
  command: string,
  args: string[],
  signal: NodeJS.Signals,
  options: { expectCode?: number | null; path?: string; oneProcess?: boolean } = {},
): Promise<void> {
  const dir = tempDir(t);
  const started = await start(command, args, {
    PATH: options.path ?? userPath(),
    HOME: process.env.HOME ?? os.tmpdir(),
    DATABASE_URL: path.join(dir, 't.db'),
    DATA_DIR: dir,
  });
  const pids = descendants(started.child.pid ?? 0);
  t.after(() => {
    for (const pid of [started.child.pid ?? 0, ...pids]) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  const server = serverProcess([started.child.pid ?? 0, ...pids]);
  if (options.oneProcess === true) {
    assert.equal(server.pid, started.child.pid, 'the process started is the server itself');
  }
  // Every way of starting gives the server the memory settings of `npm start`.
  assert.equal(server.env.get('MALLOC_ARENA_MAX'), '2', `${command} ${args.join(' ')}`);
  assert.ok(server.argv.includes('--max-semi-space-size=12'), server.argv.join(' '));
  const httpPort = Number(new URL(started.baseUrl).port);
  const rtmpPort = Number(/RTMP ingest at rtmp:\/\/[^:]+:(\d+)\//.exec(started.output())?.[1]);
  assert.ok(rtmpPort > 0, started.output());

  started.child.kill(signal);
  const code = await within(started.exited, 8000, `${command} exiting on ${signal}`);
  assert.equal(code, options.expectCode === undefined ? 0 : options.expectCode);
  await waitFor(() => !alive(server.pid), {
    what: `the server (pid ${server.pid}) to stop after ${command} did`,
    timeoutMs: 8000,
  });
  assert.match(started.stdout(), /"msg":"stopped"/);
  assert.equal(await refused(httpPort), true, 'the HTTP port is free');
  assert.equal(await refused(rtmpPort), true, 'the RTMP port is free');
}

interface Upload {
  /** The response's status, once the body is finished. */
  status: Promise<number>;
  /** Sends the rest of the body. */
  finish: () => void;
}

/**
 * Starts creating a stream and holds back most of the body. Resolves once the server has the
 * request in hand: it asks with Expect: 100-continue, which the server answers only after
 * authenticating and routing it, so a signal sent afterwards finds the request in flight.
 */
async function startUpload(server: Started, writeKey: string): Promise<Upload> {
  const body = JSON.stringify({ title: 'Slow upload' });
  const request = http.request(new URL(`${server.baseUrl}/streams`), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${writeKey}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
      connection: 'close',
    },
  });
  const status = new Promise<number>((resolve, reject) => {
    request.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    request.on('error', reject);
  });
  await within(new Promise<void>((resolve) => request.once('continue', resolve)), 10_000, '100 Continue');
  request.write(body.slice(0, 8));
  return { status, finish: () => request.end(body.slice(8)) };
}

/** A Node older than 24 on PATH (the machine's own), if there is one. */
function olderNode(): string | undefined {
  for (const dir of userPath().split(path.delimiter)) {
    const candidate = path.join(dir, 'node');
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(/^v(\d+)/.exec(version)?.[1]) < 24) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

describe('the server process', () => {
  test('`npm start`, `tributary` and the systemd unit run Node with the same environment and flags', () => {
    const start = (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
        scripts: { start: string };
      }
    ).scripts.start;
    const shebang = fs.readFileSync(path.join(REPO_ROOT, 'bin/tributary.js'), 'utf8').split('\n')[0] ?? '';
    assert.match(shebang, /^#!\/usr\/bin\/env -S /);
    // `exec`: the shell npm runs the script in becomes Node, so npm's signals reach the server.
    const [assignments = '', flags = ''] = start.split(/ exec node | bin\/tributary\.js serve$/);
    assert.equal(start, `${assignments} exec node ${flags} bin/tributary.js serve`);
    assert.equal(shebang, `#!/usr/bin/env -S ${assignments} node ${flags}`);
    // The documented unit runs the command itself (its shebang), with the pinned Node first on PATH.
    const deploy = fs.readFileSync(path.join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
    assert.match(deploy, /^ *Environment=PATH=\/opt\/tributary\/node_modules\/\.bin:/m);
    assert.match(deploy, /^ *ExecStart=\/opt\/tributary\/bin\/tributary\.js serve/m);
  });

  test('first start prints a demo account whose keys work; no key ever reaches the logs', async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-proc-'));
    t.after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const env = { DATABASE_URL: path.join(dir, 'db', 'tributary.db') };
    const server = await startServer(env);
    t.after(() => server.child.kill('SIGKILL'));

    // Standard output is a pipe here, so it carries JSON lines only; the keys and the lines
    // meant for a person went to standard error.
    const writeKey = /write key: (tk_\S+)/.exec(server.stderr())?.[1] ?? '';
    const readKey = /read key: {2}(tk_\S+)/.exec(server.stderr())?.[1] ?? '';
    assert.match(writeKey, /^tk_/);
    assert.match(readKey, /^tk_/);
    assert.match(server.stderr(), /curl -s -X POST/);
    assert.equal(server.stdout().includes('tk_'), false, 'a key reached standard output');
    for (const line of server.stdout().split('\n').filter(Boolean)) {
      assert.doesNotThrow(() => JSON.parse(line), `not a JSON line on standard output: ${line}`);
    }
    // The port was chosen by the OS; the printed base URL carries the real one.
    assert.match(server.baseUrl, /^http:\/\/localhost:\d+\/v1$/);
    // The web app's address is named too (issue 28), and it answers with the home page.
    const site = /Web app at (\S+)/.exec(server.output())?.[1] ?? '';
    assert.equal(site, `${server.baseUrl.replace(/\/v1$/, '')}/`);
    const home = await fetch(site, { headers: { accept: 'text/html' } });
    assert.equal(home.status, 200);
    assert.match(await home.text(), /<title>Home · Tributary<\/title>/);
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

    // The one-time sign-in link signs the demo creator in to the web app, once.
    const link = /(http:\/\/localhost:\d+\/sign-in\/link\/[0-9A-Za-z]+)\n/.exec(server.stderr())?.[1] ?? '';
    assert.ok(
      link.startsWith(server.baseUrl.replace(/\/v1$/, '')),
      `the printed link names the server: ${link}`,
    );
    const browser = newAgent(link);
    const confirm = await browser.get(new URL(link).pathname);
    assert.equal(confirm.status, 200);
    assert.match(await confirm.text(), /Sign in as Demo creator/);
    const used = await browser.post(new URL(link).pathname, {});
    assert.equal(used.status, 303);
    assert.equal((await browser.get('/account')).status, 200);
    const again = await newAgent(link).post(new URL(link).pathname, {});
    assert.equal(again.status, 404, 'the link works once');

    // A key revoked from the CLI stops working in the running server. That it takes at most a
    // second (the key cache's bound) is proven with a TestClock in test/api/access.test.ts;
    // here the revocation must reach a separate process through the database.
    const userId = /user: +(usr_\S+)/.exec(server.output())?.[1] ?? '';
    const keys = await runCli(['keys', 'list', '--user', userId], env);
    const readKeyId = keys.stdout
      .split('\n')
      .find((line) => line.includes(`...${readKey.slice(-4)}`))
      ?.split('\t')[0];
    assert.equal((await runCli(['keys', 'revoke', readKeyId ?? ''], env)).code, 0);
    const revoked = await waitFor(
      async () => {
        const response = await fetch(`${server.baseUrl}/streams`, {
          headers: { authorization: `Bearer ${readKey}` },
        });
        await response.arrayBuffer();
        return response.status === 401 && response;
      },
      { what: 'the revoked key to be refused', timeoutMs: 10_000, intervalMs: 100 },
    );

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
    const second = await startServer(env, false);
    t.after(() => second.child.kill('SIGKILL'));
    assert.equal(/write key/.test(second.output()), false);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  test('node:http (what axios and got use) posting 8 and 30 MB gets the refusal, not EPIPE', async (t) => {
    const env = { DATABASE_URL: path.join(tempDir(t), 'db', 'tributary.db') };
    const server = await startServer(env);
    t.after(() => server.child.kill('SIGKILL'));
    const writeKey = /write key: (tk_\S+)/.exec(server.stderr())?.[1] ?? '';
    const bodies = new Map(
      [8, 30].map((megabytes) => [megabytes, Buffer.alloc(megabytes * 1024 * 1024, 'a')]),
    );
    const post = (key: string, megabytes: number) =>
      new Promise<string>((resolve) => {
        const body = bodies.get(megabytes) ?? Buffer.alloc(0);
        const request = http.request(new URL(`${server.baseUrl}/streams`), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': body.length,
          },
        });
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => {
            const code = (JSON.parse(text) as { error: { code: string } }).error.code;
            resolve(`${response.statusCode} ${code}`);
          });
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          resolve(error.code ?? error.message);
        });
        request.end(body);
      });
    // Closed under a body still arriving, the connection was reset, and many tries ended in
    // EPIPE before the client read the answer (7 of 20 at 8 MB with an unknown key, measured).
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) seen.push(await post('tk_unknown', i % 5 === 4 ? 30 : 8));
    for (let i = 0; i < 5; i++) seen.push(await post(writeKey, 8));
    assert.deepEqual(seen, [
      ...Array<string>(20).fill('401 invalid_api_key'),
      ...Array<string>(5).fill('413 payload_too_large'),
    ]);
  });

  test('SIGTERM lets an in-flight request finish, then exits cleanly', async (t) => {
    const server = await startServer({ DATABASE_URL: path.join(tempDir(t), 't.db') });
    t.after(() => server.child.kill('SIGKILL'));
    const writeKey = /write key: (tk_\S+)/.exec(server.output())?.[1] ?? '';
    const upload = await startUpload(server, writeKey);
    server.child.kill('SIGTERM');
    await waitFor(() => server.stdout().includes('shutting down'), {
      what: 'the server to begin shutting down',
    });
    upload.finish();
    assert.equal(await upload.status, 201);
    assert.equal(await within(server.exited, 8000, 'the server exiting'), 0);
    assert.match(server.output(), /"msg":"stopped"/);
  });

  test('a second SIGINT during shutdown does not cut it short (Ctrl-C under `npm start`)', async (t) => {
    // A terminal's Ctrl-C reaches npm and the server (one process group), and npm passes its
    // copy on: the server gets SIGINT twice, and must still finish what is in flight.
    const server = await startServer({ DATABASE_URL: path.join(tempDir(t), 't.db') });
    t.after(() => server.child.kill('SIGKILL'));
    const writeKey = /write key: (tk_\S+)/.exec(server.output())?.[1] ?? '';
    const upload = await startUpload(server, writeKey);
    server.child.kill('SIGINT');
    await waitFor(() => server.stdout().includes('shutting down'), {
      what: 'the server to begin shutting down',
    });
    server.child.kill('SIGINT');
    // Nothing to wait for if the second SIGINT is handled right. Were it not, its default
    // action would end the process as the kernel delivers it, before the process runs again
    // to read the rest of the body; 200 ms is margin for a loaded machine, not a measurement.
    await pause(200);
    upload.finish();
    assert.equal(await upload.status, 201);
    assert.equal(await within(server.exited, 8000, 'the server exiting'), 0);
    assert.match(server.stdout(), /"msg":"stopped"/);
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

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} to \`npm start\` stops the server gracefully and frees its ports`, async (t) => {
      await stopsGracefully(t, 'npm', ['start'], signal);
    });
  }

  test('`npm start` killed outright (SIGKILL): the server notices and stops gracefully', async (t) => {
    await stopsGracefully(t, 'npm', ['start'], 'SIGKILL', { expectCode: null });
  });

  test('SIGTERM to `npx tributary serve` stops the server gracefully and frees its ports', async (t) => {
    // npx runs the command in a shell that dies of the signal without passing it on; the server
    // notices that npm is gone and stops as if signalled. npx itself ends by the signal.
    await stopsGracefully(t, 'npx', ['tributary', 'serve'], 'SIGTERM', { expectCode: null });
  });

  test('the systemd unit of docs/deploy.md: one process, the flags from the first line, SIGTERM', async (t) => {
    // As the unit runs it: the file itself, the pinned Node first on PATH.
    const bin = path.join(REPO_ROOT, 'node_modules/.bin');
    await stopsGracefully(t, path.join(REPO_ROOT, 'bin/tributary.js'), ['serve'], 'SIGTERM', {
      path: `${bin}${path.delimiter}${userPath()}`,
      oneProcess: true,
    });
  });

  test('`node bin/tributary.js serve` on Node 24 without the flags gets them, and passes SIGTERM on', async (t) => {
    await stopsGracefully(t, process.execPath, ['bin/tributary.js', 'serve'], 'SIGTERM');
  });

  test("a start finds its modules compiled in the installation's cache and does not strip types again", async () => {
    const cache = path.join(REPO_ROOT, 'node_modules/.cache/tributary-compile');
    // Node reports every cache read on stderr with this debug switch.
    const env = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
    const first = await runCli(['--help'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.ok(fs.readdirSync(cache).length > 0, `${cache} holds the compiled modules`);
    const second = await runCli(['--help'], env);
    assert.equal(second.code, 0, second.stderr);
    const main = `file://${path.join(REPO_ROOT, 'src/main.ts')}`;
    assert.ok(
      second.stderr.includes(`retrieving transpile cache for StrippedTypeScript ${main}...success`),
      `the second start reads src/main.ts stripped from the cache:\n${second.stderr.slice(0, 2000)}`,
    );
    // An operator can turn it off.
    const off = await runCli(['--help'], { ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
    assert.equal(off.code, 0, off.stderr);
    assert.doesNotMatch(off.stderr, /retrieving transpile cache/);
  });

  test("the machine's older Node runs `bin/tributary.js` on the pinned Node 24", async (t) => {
    const node = olderNode();
    if (!node) {
      t.skip('no Node older than 24 on PATH: nothing to check');
      return;
    }
    const help = spawn(node, ['bin/tributary.js', '--help'], {
      cwd: REPO_ROOT,
      env: { PATH: userPath(), HOME: process.env.HOME ?? os.tmpdir() },
    });
    let stdout = '';
    let stderr = '';
    help.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    help.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await within(
      new Promise<number | null>((resolve) => help.on('close', resolve)),
      10_000,
      'tributary --help',
    );
    assert.equal(code, 0, stderr);
    assert.equal(stderr, '');
    assert.match(stdout, /^Usage: tributary <command>/);
    // A failing command's exit code comes back through the relaunch.
    const bad = spawn(node, ['bin/tributary.js', 'no-such-command'], {
      cwd: REPO_ROOT,
      env: { PATH: userPath(), HOME: process.env.HOME ?? os.tmpdir() },
      stdio: 'ignore',
    });
    assert.equal(await new Promise((resolve) => bad.on('close', resolve)), 2);
    // The server too, with its flags and graceful SIGTERM, through the launching process.
    await stopsGracefully(t, node, ['bin/tributary.js', 'serve'], 'SIGTERM');
  });
});
