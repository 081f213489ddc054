// Debian's nginx running a shipped file with only its addresses and folders changed, in a folder
// of its own: deploy/nginx-edge.conf as a caching edge (test/deploy/edge.test.ts and the edge
// bench, bench/edge.ts) and deploy/nginx.conf as the media origin (test/deploy/origin.test.ts
// and the media bench, bench/media.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const EDGE_CONFIG = path.resolve(import.meta.dirname, '../../deploy/nginx-edge.conf');
export const ORIGIN_CONFIG = path.resolve(import.meta.dirname, '../../deploy/nginx.conf');
export const NGINX_BIN = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find(
  (file) => fs.existsSync(file),
);

/** Replaces `from` (a string everywhere, a RegExp as it says), which the shipped file must contain. */
function replaceShipped(text: string, from: string | RegExp, to: string): string {
  const count = typeof from === 'string' ? text.split(from).length - 1 : (text.match(from) ?? []).length;
  if (count === 0) throw new Error(`a shipped nginx file no longer contains ${String(from)}`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
}

/** deploy/nginx-edge.conf pointed at this origin, listening on this port, caching under `cacheDir`. */
export function renderEdgeConfig(options: {
  listenPort: number;
  originPort: number;
  cacheDir: string;
}): string {
  let text = fs.readFileSync(EDGE_CONFIG, 'utf8');
  text = replaceShipped(
    text,
    /^ {4}server 127\.0\.0\.1:8080;$/m,
    `    server 127.0.0.1:${options.originPort};`,
  );
  text = replaceShipped(
    text,
    /^ {4}listen 80;$/m,
    `    listen 127.0.0.1:${options.listenPort} backlog=4096;`,
  );
  return replaceShipped(text, '/var/cache/nginx/tributary/', `${options.cacheDir}/`);
}

/**
 * deploy/nginx.conf as the media origin: in front of one API process, serving media from its
 * DATA_DIR, and trusting X-Forwarded-For from loopback (where the tests' edges and clients are).
 */
export function renderOriginConfig(options: {
  listenPort: number;
  apiPort: number;
  dataDir: string;
  /** The playlist limit instead of the shipped one (the bench's one client plays every viewer). */
  playlistLimit?: { rate: string; burst: number };
}): string {
  let text = fs.readFileSync(ORIGIN_CONFIG, 'utf8');
  const limit = options.playlistLimit;
  if (limit !== undefined) {
    text = replaceShipped(
      text,
      'zone=tributary_playlists:16m rate=2r/s;',
      `zone=tributary_playlists:16m rate=${limit.rate};`,
    );
    text = replaceShipped(
      text,
      'zone=tributary_playlists burst=60 nodelay;',
      `zone=tributary_playlists burst=${limit.burst} nodelay;`,
    );
  }
  text = replaceShipped(
    text,
    /^ {4}server 127\.0\.0\.1:8081 (.*);\n {4}server 127\.0\.0\.1:8082 .*;$/m,
    `    server 127.0.0.1:${options.apiPort} $1;`,
  );
  text = replaceShipped(
    text,
    /^ {4}listen 80;$/m,
    `    listen 127.0.0.1:${options.listenPort} backlog=4096;`,
  );
  text = replaceShipped(text, '    # set_real_ip_from 10.0.0.0/8;', '    set_real_ip_from 127.0.0.1;');
  return replaceShipped(text, 'root /var/lib/tributary;', `root ${options.dataDir};`);
}

/**
 * A self-contained nginx.conf around a site file: nothing outside `dir`. An edge's workers run
 * as nobody (when started as root) and buffer their log, as under a crowd of viewers; an
 * origin's run as this process's user, as the origin's run as the service's, and write each
 * line as they answer.
 */
function mainConfig(dir: string, workers: number, role: Role): string {
  // The first five fields are what tests read; the timings after them (when each request ended,
  // its time, its origin's time, the client connection) are for reading a run by hand.
  const user = role === 'origin' && process.getuid?.() === 0 ? 'user root;\n' : '';
  const buffering = role === 'edge' ? ' buffer=64k flush=200ms' : '';
  return `${user}daemon off;
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 8192; }
worker_rlimit_nofile 20000;
http {
  include /etc/nginx/mime.types;
  log_format edge '$request_method $uri $status $upstream_cache_status $upstream_addr $msec $request_time $upstream_response_time $connection';
  access_log ${dir}/access.log edge${buffering};
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/${role}.conf;
}
`;
}

type Role = 'edge' | 'origin';

export interface Nginx {
  url: string;
  dir: string;
  process: ChildProcess;
  /** The access log so far: `METHOD URI STATUS CACHE-STATUS UPSTREAM` and timings per request. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/**
 * Writes deploy/nginx-edge.conf into `dir`, checks it with `nginx -t` and starts nginx in the
 * foreground; resolves once it answers. `wrap` wraps the nginx command line (taskset).
 */
export async function startEdge(options: {
  dir: string;
  listenPort: number;
  originPort: number;
  workers?: number;
  wrap?: (command: string[]) => string[];
}): Promise<Nginx> {
  const { dir } = options;
  fs.mkdirSync(path.join(dir, 'cache'), { recursive: true });
  // As root, nginx's workers run as nobody: they must reach the cache and temp folders.
  fs.chmodSync(dir, 0o777);
  fs.chmodSync(path.join(dir, 'cache'), 0o777);
  const site = renderEdgeConfig({
    listenPort: options.listenPort,
    originPort: options.originPort,
    cacheDir: path.join(dir, 'cache'),
  });
  return startNginx({ ...options, site, role: 'edge' });
}

/**
 * deploy/nginx.conf as the media origin in front of one API process whose DATA_DIR is
 * `dataDir`, one worker.
 */
export async function startOrigin(options: {
  dir: string;
  listenPort: number;
  apiPort: number;
  dataDir: string;
}): Promise<Nginx> {
  return startNginx({ ...options, site: renderOriginConfig(options), role: 'origin' });
}

async function startNginx(options: {
  dir: string;
  listenPort: number;
  site: string;
  role: Role;
  workers?: number;
  wrap?: ((command: string[]) => string[]) | undefined;
}): Promise<Nginx> {
  if (NGINX_BIN === undefined) throw new Error('nginx is not installed (apt-get install nginx)');
  const { dir } = options;
  fs.writeFileSync(path.join(dir, `${options.role}.conf`), options.site);
  const config = path.join(dir, 'nginx.conf');
  fs.writeFileSync(config, mainConfig(dir, options.workers ?? 1, options.role));
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
      if (Date.now() > deadline) throw new Error('nginx did not answer within 10 s');
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
