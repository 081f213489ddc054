// Debian's nginx running deploy/nginx-edge.conf, the shipped file with only its addresses and
// cache folder changed, in a folder of its own: used by test/deploy/edge.test.ts and by the
// edge bench (bench/edge.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const EDGE_CONFIG = path.resolve(import.meta.dirname, '../../deploy/nginx-edge.conf');
export const NGINX_BIN = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find(
  (file) => fs.existsSync(file),
);

/** Replaces exactly one occurrence of `from` (the shipped file must still contain it). */
function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const count = typeof from === 'string' ? text.split(from).length - 1 : (text.match(from) ?? []).length;
  if (count === 0) throw new Error(`deploy/nginx-edge.conf no longer contains ${String(from)}`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
}

/** deploy/nginx-edge.conf pointed at this origin, listening on this port, caching under `cacheDir`. */
export function renderEdgeConfig(options: {
  listenPort: number;
  originPort: number;
  cacheDir: string;
}): string {
  let text = fs.readFileSync(EDGE_CONFIG, 'utf8');
  text = replaceOnce(text, /^ {4}server 127\.0\.0\.1:8080;$/m, `    server 127.0.0.1:${options.originPort};`);
  text = replaceOnce(text, /^ {4}listen 80;$/m, `    listen 127.0.0.1:${options.listenPort} backlog=4096;`);
  return replaceOnce(text, '/var/cache/nginx/tributary/', `${options.cacheDir}/`);
}

/** A self-contained nginx.conf around the edge's file: nothing outside `dir`. */
function mainConfig(dir: string, workers: number): string {
  return `daemon off;
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 8192; }
worker_rlimit_nofile 20000;
http {
  include /etc/nginx/mime.types;
  log_format edge '$request_method $uri $status $upstream_cache_status $upstream_addr';
  access_log ${dir}/access.log edge buffer=64k flush=200ms;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/edge.conf;
}
`;
}

export interface Edge {
  url: string;
  dir: string;
  process: ChildProcess;
  /** The access log so far: `METHOD URI STATUS CACHE-STATUS UPSTREAM` per request. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/**
 * Writes the configuration into `dir`, checks it with `nginx -t` and starts nginx in the
 * foreground; resolves once it answers. `command` wraps the nginx command line (taskset).
 */
export async function startEdge(options: {
  dir: string;
  listenPort: number;
  originPort: number;
  workers?: number;
  wrap?: (command: string[]) => string[];
}): Promise<Edge> {
  if (NGINX_BIN === undefined) throw new Error('nginx is not installed (apt-get install nginx)');
  const { dir } = options;
  fs.mkdirSync(path.join(dir, 'cache'), { recursive: true });
  // As root, nginx's workers run as nobody: they must reach the cache and temp folders.
  fs.chmodSync(dir, 0o777);
  fs.chmodSync(path.join(dir, 'cache'), 0o777);
  fs.writeFileSync(
    path.join(dir, 'edge.conf'),
    renderEdgeConfig({
      listenPort: options.listenPort,
      originPort: options.originPort,
      cacheDir: path.join(dir, 'cache'),
    }),
  );
  const config = path.join(dir, 'nginx.conf');
  fs.writeFileSync(config, mainConfig(dir, options.workers ?? 1));
  await run(NGINX_BIN, ['-t', '-q', '-p', dir, '-c', config]);
  const command = (options.wrap ?? ((c) => c))([NGINX_BIN, '-p', dir, '-c', config]);
  const out = fs.openSync(path.join(dir, 'nginx.out'), 'w');
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${options.listenPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
    try {
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('the edge did not answer within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    dir,
    process: child,
    accessLog: () => {
      const file = path.join(dir, 'access.log');
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    },
    stop: async () => {
      // SIGQUIT: workers finish, the buffered access log is written.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
