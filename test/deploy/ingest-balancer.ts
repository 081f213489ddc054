// deploy/nginx-ingest.conf, as shipped with only its addresses changed, run by Debian's nginx
// (with libnginx-mod-stream) in a folder of its own: the RTMP balancer in front of ingest processes.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';
import { waitFor } from '../helpers/wait.ts';
import { NGINX_BIN } from './nginx.ts';

const run = promisify(execFile);
const INGEST_CONFIG = path.resolve(import.meta.dirname, '../../deploy/nginx-ingest.conf');
export const STREAM_MODULE = [
  '/usr/lib/nginx/modules/ngx_stream_module.so',
  '/usr/local/nginx/modules/ngx_stream_module.so',
].find((file) => fs.existsSync(file));
/** deploy/nginx-ingest.conf with its listen port and two upstreams changed. */
export function renderIngestConfig(listenPort: number, upstreams: [number, number]): string {
  let text = fs.readFileSync(INGEST_CONFIG, 'utf8');
  const replace = (from: RegExp, to: string) => {
    assert.match(text, from, `the shipped ${INGEST_CONFIG} no longer contains ${String(from)}`);
    text = text.replace(from, to);
  };
  replace(/server 127\.0\.0\.1:1936 /, `server 127.0.0.1:${upstreams[0]} `);
  replace(/server 127\.0\.0\.1:1937 /, `server 127.0.0.1:${upstreams[1]} `);
  replace(/listen 1935;/, `listen 127.0.0.1:${listenPort};`);
  return text;
}

/** deploy/nginx-ingest.conf run by Debian's nginx in a folder of its own; resolves once it listens. */
export async function startBalancer(
  t: Pick<TestContext, 'after'>,
  listenPort: number,
  upstreams: [number, number],
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-ingest-lb-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  fs.writeFileSync(path.join(dir, 'ingest.conf'), renderIngestConfig(listenPort, upstreams));
  const config = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    config,
    `load_module ${STREAM_MODULE};
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 1024; }
include ${dir}/ingest.conf;
`,
  );
  await run(NGINX_BIN!, ['-t', '-q', '-p', dir, '-c', config]);
  const child = spawn(NGINX_BIN!, ['-p', dir, '-c', config], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(listenPort, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => {
          resolve(false);
        });
      }),
    { what: 'nginx listening' },
  );
}

/** Why the balancer cannot run here, or false. */
export const SKIP_WITHOUT_STREAM_NGINX: string | false =
  NGINX_BIN === undefined || STREAM_MODULE === undefined
    ? 'needs nginx with its stream module (apt-get install nginx libnginx-mod-stream)'
    : false;
