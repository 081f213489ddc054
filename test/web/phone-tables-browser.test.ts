// The dashboard's tables on a 390 px phone, in headless Chromium (issue 28): streams, videos,
// webhooks, a webhook's delivery log, a delivery's attempts and API keys each read as a list of
// cards: nothing is cut off or scrolled sideways (every cell lies inside the screen), a title has
// the card's whole width instead of wrapping a few letters per line, and each value is named by
// its column. At 1440 px they are tables as before. Passes axe; screenshots at both widths
// (TEST_SCREENSHOT_DIR).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startCreatorWithContent } from '../helpers/creator-with-content.ts';
import { launchBrowser } from '../helpers/media-browser.ts';
import { waitFor } from '../helpers/wait.ts';
import { signInBrowser } from '../helpers/web.ts';
import { expectNoSeriousAxeViolations, screenshotBothWidths } from '../helpers/web-browser.ts';

interface Layout {
  viewport: number;
  pageWidth: number;
  /** The right edge of the furthest cell, in px from the left of the page. */
  rightmost: number;
  /** The width of each row's heading (its title), and of the table. */
  headingWidths: number[];
  tableWidth: number;
  /** The label each value cell shows before it (CSS content), empty when none. */
  labels: string[];
  headerHidden: boolean;
}

async function layoutOf(page: Page, table: string): Promise<Layout> {
  return page.evaluate((selector) => {
    const win = globalThis as any;
    const doc = win.document;
    const element = doc.querySelector(selector);
    const cells = [...element.querySelectorAll('tbody th, tbody td')];
    const head = element.querySelector('thead');
    return {
      viewport: win.innerWidth,
      pageWidth: doc.documentElement.scrollWidth,
      rightmost: Math.max(...cells.map((cell: any) => cell.getBoundingClientRect().right)),
      headingWidths: [...element.querySelectorAll('tbody th[scope="row"]')].map(
        (th: any) => th.getBoundingClientRect().width,
      ),
      tableWidth: element.getBoundingClientRect().width,
      labels: [...element.querySelectorAll('tbody td[data-label]')].map((td: any) =>
        win.getComputedStyle(td, '::before').content.replace(/^"|"$/g, ''),
      ),
      headerHidden: head === null || head.getBoundingClientRect().height <= 1,
    };
  }, table);
}

async function expectCards(page: Page, table: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const layout = await layoutOf(page, table);
  assert.ok(
    layout.pageWidth <= layout.viewport,
    `${table}: the page scrolls sideways (${layout.pageWidth} px)`,
  );
  assert.ok(
    layout.rightmost <= layout.viewport,
    `${table}: a cell ends at ${layout.rightmost} px, off the screen`,
  );
  for (const width of layout.headingWidths) {
    assert.ok(
      width >= layout.tableWidth * 0.9,
      `${table}: a title only ${width} of ${layout.tableWidth} px wide`,
    );
  }
  assert.ok(layout.headerHidden, `${table}: the column headings are replaced by labels`);
  assert.ok(layout.labels.length > 0 && layout.labels.every((label) => label !== 'none' && label !== ''));
  await expectNoSeriousAxeViolations(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  const wide = await layoutOf(page, table);
  assert.equal(wide.headerHidden, false, `${table}: a table with its headings at 1440 px`);
}

test('at 390 px the streams, videos, webhooks, deliveries, attempts and keys tables read as cards', async (t) => {
  const { server, email, password, webhookId } = await startCreatorWithContent(t);

  const context = await launchBrowser(t);
  await signInBrowser(context, server.origin, { email, password });
  const page = await context.newPage();

  await page.goto(`${server.origin}/dashboard/streams`);
  await expectCards(page, '#stream-list');
  await screenshotBothWidths(page, 'dashboard-streams-phone');

  await page.goto(`${server.origin}/dashboard/videos`);
  await expectCards(page, '#video-list');
  await screenshotBothWidths(page, 'dashboard-videos-phone');

  await page.goto(`${server.origin}/dashboard/webhooks`);
  await expectCards(page, '#webhook-list');

  await waitFor(
    async () => {
      await page.goto(`${server.origin}/dashboard/webhooks/${webhookId}`);
      return (await page.locator('#delivery-log tr[data-status="succeeded"]').count()) >= 1;
    },
    { timeoutMs: 15_000, what: 'the ping in the log' },
  );
  await expectCards(page, '#delivery-log');
  await screenshotBothWidths(page, 'dashboard-webhook-phone');

  await page.locator('#delivery-log tbody a').first().click();
  await page.waitForSelector('#attempts');
  await expectCards(page, '#attempts');
  await screenshotBothWidths(page, 'dashboard-webhook-delivery-phone');

  await page.goto(`${server.origin}/dashboard/keys`);
  await expectCards(page, '#key-list');
  await screenshotBothWidths(page, 'web-core-keys-phone');
});
