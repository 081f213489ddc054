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

export async function launchBrowser(t: TestContext): Promise<BrowserContext> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  t.after(async () => {
    await closeWithin(context, profile, 15_000);
    fs.rmSync(profile, { recursive: true, force: true });
  });
  return context;
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
  try {
    execFileSync('pkill', ['-KILL', '-f', `--user-data-dir=${profile}`]);
  } catch {
    // pkill exits 1 when nothing matched: the browser went away by itself.
  }
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
