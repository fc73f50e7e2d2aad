// Screenshot of an HTML report with its largest group opened, for the README:
//   node screenshot.mjs REPORT.html OUT.png
// (scripts/make-report-screenshot.sh runs it on a real sample).
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [report, png] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
await page.locator('details.group > summary').first().click();
await page.evaluate(() => window.scrollTo(0, 0));
// From the top of the page down to the drawn graph of the largest group.
const graph = await page.locator('details.group div.drawn').first().boundingBox();
const height = Math.min(Math.ceil(graph.y + graph.height + 16), 3400);
await page.screenshot({ path: png, fullPage: true, clip: { x: 0, y: 0, width: 1280, height } });
await browser.close();
