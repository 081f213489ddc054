// deploy/nginx.conf, run by Debian's nginx on loopback in front of two real API processes.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from 'undici';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../helpers/databases.ts';
import {
  startService,
  tributaryCli,
  waitUntilReady,
  type ServiceProcess,
  startApiProcesses,
} from './processes.ts';
import { waitFor } from '../helpers/wait.ts';
import { NGINX_BIN, ORIGIN_CONFIG } from '../deploy/nginx.ts';
import { freePort, REDIS_URL } from './redis.ts';

const run = promisify(execFile);

if (process.env.CI === 'true' && NGINX_BIN === undefined) {
  throw new Error('CI must install nginx (Debian package "nginx") to test deploy/nginx.conf');
}

const SKIP =
  NGINX_BIN === undefined
    ? 'nginx is not installed (apt-get install nginx)'
    : POSTGRES_ADMIN_URL
      ? false
      : 'TEST_POSTGRES_URL is not set';

// The per-IP test needs both processes to share one per-IP budget, through Redis.
const SKIP_WITHOUT_SHARED_LIMITS = REDIS_URL === undefined ? 'TEST_REDIS_URL is not set' : false;

const PER_IP_LIMIT = 5;

/** deploy/nginx.conf with its listen address and upstream servers pointed at this test's ports. */
function renderSiteConfig(listenPort: number, apiPorts: number[]): string {
  const original = fs.readFileSync(ORIGIN_CONFIG, 'utf8');
  const servers = [...original.matchAll(/^ {4}server 127\.0\.0\.1:\d+ (.*);$/gm)];
  assert.equal(servers.length, 2, 'deploy/nginx.conf lists two upstream servers');
  let rendered = original;
  servers.forEach((match, i) => {
    rendered = rendered.replace(match[0], `    server 127.0.0.1:${apiPorts[i]} ${match[1]};`);
  });
  assert.match(rendered, /^ {4}listen 80;$/m);
  return rendered.replace(/^ {4}listen 80;$/m, `    listen 127.0.0.1:${listenPort};`);
}

/** A self-contained nginx.conf around the site file: nothing outside the test's directory. */
function mainConfig(dir: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/tributary.conf;
}
`;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request from a chosen loopback address, so the proxy sees distinct clients. */
async function from(
  localAddress: string,
  origin: string,
  requestPath: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const client = new Client(origin, { localAddress });
  try {
    const response = await client.request({ path: requestPath, method: 'GET', headers });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, body: JSON.parse(text) };
  } finally {
    await client.close();
  }
}

function requestLogLines(api: ServiceProcess, url: string): number {
  return api
    .log()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"') && line.includes(`"url":"${url}"`)).length;
}

// The timeout only stops a hang, with room for a machine whose cores are busy elsewhere.
describe('deploy/nginx.conf in front of two API processes', { skip: SKIP, timeout: 400_000 }, () => {
  let database: TestDatabase;
  let proxy: string;
  let writeKey: string;
  const apis: ServiceProcess[] = [];
  let nginx: ServiceProcess | undefined;

  before(async () => {
    database = await createTestDatabase('postgres');
    fs.chmodSync(database.dataDir, 0o755); // nginx's worker runs as another user
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT_PER_IP: String(PER_IP_LIMIT),
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...(REDIS_URL === undefined ? {} : { REDIS_URL }),
    };
    await tributaryCli(env, ['migrate']);
    const userId = await tributaryCli(env, ['users', 'create', '--name', 'Behind nginx']);
    writeKey = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);

    const started = await startApiProcesses(null, ['api-1', 'api-2'], env, database.dataDir);
    apis.push(...started.map((api) => api.service));
    const apiPorts = started.map((api) => api.port);

    const listenPort = await freePort();
    const dir = database.dataDir;
    fs.writeFileSync(path.join(dir, 'tributary.conf'), renderSiteConfig(listenPort, apiPorts));
    fs.writeFileSync(path.join(dir, 'nginx.conf'), mainConfig(dir));
    const nginxBin = NGINX_BIN ?? 'nginx';
    // The configuration must pass nginx's own check before it runs.
    await run(nginxBin, ['-t', '-q', '-p', dir, '-c', path.join(dir, 'nginx.conf')]);
    nginx = startService(null, {
      name: 'nginx',
      command: nginxBin,
      args: ['-p', dir, '-c', path.join(dir, 'nginx.conf')],
      env: { PATH: process.env.PATH },
      logDir: dir,
    });
    proxy = `http://127.0.0.1:${listenPort}`;
    await waitUntilReady(nginx, `${proxy}/healthz`);
  });

  after(async () => {
    await nginx?.stop('SIGQUIT');
    for (const api of apis) await api.stop('SIGKILL');
    await database.drop();
  });

  test('requests pass through nginx to both API processes, bodies and headers intact', async () => {
    const created = await fetch(`${proxy}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Through the proxy' }),
    });
    assert.equal(created.status, 201);
    const stream = (await created.json()) as { id: string };
    const url = `/v1/streams/${stream.id}`;

    for (let i = 0; i < 40; i++) {
      const response = await fetch(`${proxy}${url}`, { headers: { authorization: `Bearer ${writeKey}` } });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { id: string }).id, stream.id);
      assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
      assert.ok(response.headers.get('x-ratelimit-remaining') !== null);
    }
    // Each process logs one line per request, asynchronously: wait for all 40 lines.
    const counts = await waitFor(
      () => {
        const seen = apis.map((api) => requestLogLines(api, url));
        return seen[0]! + seen[1]! >= 40 && seen;
      },
      { what: 'a log line for each of the 40 requests', intervalMs: 100 },
    );
    assert.equal(counts[0]! + counts[1]!, 40, `requests seen by the API processes: ${counts.join(' + ')}`);
    assert.ok(
      counts.every((count) => count >= 10),
      `both processes served a share: ${counts.join(' + ')}`,
    );
  });

  test('an error from the API keeps its JSON envelope through the proxy', async () => {
    const response = await fetch(`${proxy}/v1/streams`, { method: 'POST', body: '{}' });
    assert.equal(response.status, 401);
    const body = (await response.json()) as { error: { code: string } };
    assert.equal(body.error.code, 'authentication_required');
  });

  test(
    'per-IP limits count the client behind the proxy, not the proxy, and ignore a forged X-Forwarded-For',
    { skip: SKIP_WITHOUT_SHARED_LIMITS },
    async () => {
      for (let i = 1; i <= PER_IP_LIMIT; i++) {
        const reply = await from('127.0.0.2', proxy, '/v1/streams');
        assert.equal(reply.status, 401, `anonymous request ${i} from 127.0.0.2`);
      }
      const refused = await from('127.0.0.2', proxy, '/v1/streams');
      assert.equal(refused.status, 429);
      assert.equal(refused.body.error.code, 'rate_limit_exceeded');
      // Another client has its own budget, even when it claims to be the first one.
      const other = await from('127.0.0.3', proxy, '/v1/streams', { 'x-forwarded-for': '127.0.0.2' });
      assert.equal(other.status, 401);
      assert.equal(other.headers['x-ratelimit-remaining'], String(PER_IP_LIMIT - 1));
    },
  );

  test('when one API process dies, requests go to the other one', async () => {
    await apis[1]!.stop('SIGKILL');
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${proxy}/v1/streams?limit=1`, {
        headers: { authorization: `Bearer ${writeKey}` },
      });
      assert.equal(response.status, 200, `request ${i + 1} after one process died`);
      await response.arrayBuffer();
    }
  });

  test('with no API process left, clients get a JSON 503 with Retry-After', async () => {
    await apis[0]!.stop('SIGKILL');
    const response = await fetch(`${proxy}/v1/streams`, { headers: { authorization: `Bearer ${writeKey}` } });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('retry-after'), '5');
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'service_unavailable');
  });
});
