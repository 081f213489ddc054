// What a viewer gets with the nginx edge of deploy/nginx-edge.conf in front of the origin: an
// edge started for one test, and a video's watch page played by Chromium's hls.js on each host.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { NGINX_BIN, startEdge } from '../deploy/nginx.ts';
import { freePort } from './app.ts';
import { launchBrowser, waitUntilPlaying } from './media-browser.ts';

/**
 * An nginx edge in front of `origin`, stopped after the test; its URL. Without nginx it is
 * undefined, except under CI, where nginx is installed and its absence is a failure.
 */
export async function startEdgeFor(t: TestContext, origin: string): Promise<string | undefined> {
  if (NGINX_BIN === undefined) {
    if (process.env.CI) throw new Error('nginx is not installed (apt-get install nginx)');
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-edge-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const edge = await startEdge({
    dir,
    listenPort: await freePort(),
    originPort: Number(new URL(origin).port),
  });
  t.after(() => edge.stop());
  return edge.url;
}

/** The edge's cache status of two fetches of one URL: a proxied file is cached, ['MISS', 'HIT']. */
export async function edgeCacheStatuses(url: string): Promise<(string | null)[]> {
  const statuses: (string | null)[] = [];
  for (let fetchNo = 0; fetchNo < 2; fetchNo++) {
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    await response.arrayBuffer();
    statuses.push(response.headers.get('x-cache-status'));
  }
  return statuses;
}

/** Chromium opens `/watch/{videoId}` on each host and plays past 2 s, without a page error. */
export async function playsOnEveryHost(t: TestContext, hosts: string[], videoId: string): Promise<void> {
  const browser = await launchBrowser(t);
  for (const host of hosts) {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    const opened = await tab.goto(`${host}/watch/${videoId}`);
    assert.equal(opened?.status(), 200, host);
    await waitUntilPlaying(tab, 2);
    assert.deepEqual(errors, [], host);
    await tab.close();
  }
}
