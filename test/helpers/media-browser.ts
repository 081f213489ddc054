// Debian's headless Chromium driven by playwright-core, launched with the flags a closed
// network needs (no background services, no QUIC) and a throwaway profile.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.TEST_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags a closed network needs; also used by bench/latency.ts. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * A Playwright call still pending after this long means the browser is stuck: no call of the
 * tests waits longer than 180 s (most under 30 s), and the test's own limit is 600 s.
 */
const STUCK_CALL_MS = Number(process.env.TEST_BROWSER_STUCK_MS ?? 240_000);

/**
 * WebRTC between Chromium and the service on one machine (../shared/notes/webrtc.md): ICE
 * candidates on loopback, and real addresses rather than mDNS names.
 */
export const WEBRTC_LOOPBACK_ARGS = [
  '--allow-loopback-in-peer-connection',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
];

export async function launchBrowser(t: TestContext, extraArgs: string[] = []): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-chromium-'));
  const watch = new StuckCallWatch(t, profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    logger: watch.logger,
  });
  t.after(async () => {
    watch.stop();
    await closeWithin(context, profile, 15_000);
    fs.rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

/**
 * Follows every Playwright call of one browser (its API log). When one has been pending for
 * STUCK_CALL_MS, it says which, with the calls before it, and kills the browser: the pending
 * call then fails at once with "Target closed", rather than the test waiting out its limit with
 * nothing to show for where it hung.
 */
class StuckCallWatch {
  private readonly pending: { name: string; since: number }[] = [];
  private readonly recent: string[] = [];
  private readonly timer: NodeJS.Timeout;
  readonly logger = {
    isEnabled: (name: string) => name === 'api',
    log: (_name: string, _severity: string, message: string | Error) => {
      this.record(String(message));
    },
  };

  private readonly t: TestContext;
  private readonly profile: string;

  constructor(t: TestContext, profile: string) {
    this.t = t;
    this.profile = profile;
    this.timer = setInterval(() => {
      this.check();
    }, 5_000);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private record(message: string): void {
    this.recent.push(`${new Date().toISOString()} ${message}`);
    if (this.recent.length > 40) this.recent.shift();
    const started = /^=> (\S+) started/.exec(message);
    if (started?.[1] !== undefined) {
      this.pending.push({ name: started[1], since: Date.now() });
      return;
    }
    const ended = /^<= (\S+) (?:succeeded|failed)/.exec(message);
    if (ended?.[1] === undefined) return;
    const index = this.pending.findIndex((call) => call.name === ended[1]);
    if (index !== -1) this.pending.splice(index, 1);
  }

  private check(): void {
    const stuck = this.pending.find((call) => Date.now() - call.since > STUCK_CALL_MS);
    if (!stuck) return;
    this.stop();
    const report = [
      `Chromium stuck: ${stuck.name} pending for ${Math.round((Date.now() - stuck.since) / 1000)} s; killed.`,
      `Pending: ${this.pending.map((call) => call.name).join(', ')}. The last calls:`,
      ...this.recent,
    ].join('\n');
    process.stderr.write(`${report}\n`);
    this.t.diagnostic(report);
    killBrowser(this.profile);
  }
}

function killBrowser(profile: string): void {
  try {
    // The pattern must not start with "-", or pkill reads it as an option.
    execFileSync('pkill', ['-KILL', '-f', `user-data-dir=${profile}`]);
  } catch {
    // pkill exits 1 when nothing matched: the browser went away by itself.
  }
}

/**
 * Closes the browser, and kills it if it has not closed within `ms`: a renderer stuck on a
 * loaded machine must fail one test, never hold the test process open for ever.
 */
async function closeWithin(context: BrowserContext, profile: string, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = context.close().then(() => true);
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  const inTime = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (inTime) return;
  killBrowser(profile);
}

// Browser-side functions reach the page through the DevTools protocol (not eval, which the
// watch page's Content-Security-Policy forbids); the test project has no DOM types, hence any.
/** The page's <video> current time, in seconds. */
export async function currentTime(page: Page): Promise<number> {
  return page.evaluate(() => {
    const video = (globalThis as any).document.querySelector('#player');
    return Number(video.currentTime);
  });
}

/** Waits until the page's video has played past `seconds` and is still advancing. */
export async function waitUntilPlaying(page: Page, seconds = 1, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (min) => {
      const video = (globalThis as any).document.querySelector('#player');
      return video.currentTime > min && !video.paused;
    },
    seconds,
    { timeout: timeoutMs, polling: 200 },
  );
  const before = await currentTime(page);
  await page.waitForFunction(
    (start) => (globalThis as any).document.querySelector('#player').currentTime > start + 0.5,
    before,
    { timeout: 10_000, polling: 200 },
  );
}

/** The text of an element, waited for until it equals `expected`. */
export async function waitForText(page: Page, selector: string, expected: string, timeoutMs = 10_000) {
  await page.waitForFunction(
    ([css, text]) => (globalThis as any).document.querySelector(css)?.textContent === text,
    [selector, expected] as const,
    { timeout: timeoutMs, polling: 200 },
  );
}
