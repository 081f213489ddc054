// Browser checks every page test makes: no serious or critical axe-core violations, and
// screenshots at a phone's and a desktop's width (always taken, so a failure can be seen), with
// axe-core run again at each of the two widths.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let screenshotDir: string | undefined;

/** TEST_SCREENSHOT_DIR when set, else one temporary folder per test process. */
export function screenshotFolder(): string {
  screenshotDir ??=
    process.env.TEST_SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-screens-'));
  fs.mkdirSync(screenshotDir, { recursive: true });
  return screenshotDir;
}

/**
 * Runs axe-core in the page (injected as a script through the DevTools protocol, which the
 * page's CSP does not govern) and fails on serious or critical violations, naming them.
 */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n: any) => n.target.join(' ')).slice(0, 5),
    }));
  })) as { id: string; impact: string; help: string; targets: string[] }[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `axe violations on ${page.url()}:\n${JSON.stringify(serious, null, 2)}`);
}

/**
 * Full-page screenshots at 390 and 1440 px wide, named `<name>-390.png` and `<name>-1440.png`,
 * and axe-core at each width (a page must pass on a phone as on a desktop).
 */
export async function screenshotBothWidths(page: Page, name: string): Promise<string[]> {
  const folder = screenshotFolder();
  const files: string[] = [];
  const original = page.viewportSize();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const file = path.join(folder, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
    await expectNoSeriousAxeViolations(page);
  }
  if (original) await page.setViewportSize(original);
  return files;
}
