// Opens lockgraph's HTML report in headless Debian Chromium through
// playwright-core (the system browser, no download). Run by run.sh, which
// writes the reports and passes their paths and expected counts:
//   SAMPLE_HTML, SAMPLE_DEADLOCKS, SAMPLE_GROUPS, SAMPLE_WAITS, HOSTILE_HTML,
//   SNAPSHOT_HTML (samples/postgresql/snapshots/snapshot.csv and an input that cannot be read)
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const env = (name) => {
  const v = process.env[name];
  assert.ok(v, `${name} must be set (tests/browser/run.sh sets it)`);
  return v;
};

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
});
after(async () => { await browser?.close(); });

// A page with every console error, page error and dialog recorded.
async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const problems = [];
  const dialogs = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  page.on('request', (r) => { if (!r.url().startsWith('file:')) problems.push(`request ${r.url()}`); });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, problems, dialogs };
}

test('the real sample: counts, groups, no console error', async () => {
  const { page, problems } = await open(env('SAMPLE_HTML'));
  assert.equal(await page.textContent('#count-deadlocks'), env('SAMPLE_DEADLOCKS'));
  assert.equal(await page.textContent('#count-groups'), env('SAMPLE_GROUPS'));
  assert.equal(await page.textContent('#count-waits'), env('SAMPLE_WAITS'));
  const groups = page.locator('details.group');
  assert.equal(await groups.count(), Number(env('SAMPLE_GROUPS')));
  // Every group's name is visible while its body is collapsed.
  for (let i = 0; i < await groups.count(); ++i) {
    const summary = groups.nth(i).locator(':scope > summary');
    assert.ok(await summary.isVisible(), `group ${i + 1} summary visible`);
    assert.match(await summary.innerText(), new RegExp(`^\\d+× Group ${i + 1}: \\d+ deadlocks? of \\d+ process`));
    assert.equal(await groups.nth(i).getAttribute('open'), null);
  }
  assert.ok(await page.locator('svg.chart rect').first().isVisible(), 'the chart has bars');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a group opens on click and shows its drawn graph', async () => {
  const { page, problems } = await open(env('SAMPLE_HTML'));
  const group = page.locator('details.group').first();
  const svg = group.locator('div.drawn svg');
  assert.equal(await svg.isVisible(), false);
  await group.locator(':scope > summary').click();
  assert.notEqual(await group.getAttribute('open'), null);
  assert.ok(await svg.isVisible(), 'graph visible once opened');
  const box = await svg.boundingBox();
  assert.ok(box.width > 100 && box.height > 50, `graph drawn at ${JSON.stringify(box)}`);
  assert.ok((await svg.locator('g.node').count()) >= 2, 'at least two processes drawn');
  assert.match(await svg.innerHTML(), /\(victim\)/);
  // A click shows the graph at full size, another fits it again.
  const graph = group.locator('div.drawn');
  await graph.click();
  assert.match(await graph.getAttribute('class'), /\bfull\b/);
  await graph.click();
  assert.equal(await graph.getAttribute('class'), 'drawn');
  // A finding's rule link opens the rule page.
  const link = group.locator('a.rule').first();
  if (await link.count()) {
    const target = (await link.getAttribute('href')).slice(1);
    await link.click();
    assert.notEqual(await page.locator(`[id="${target}"]`).getAttribute('open'), null);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('hostile log text is shown literally and never runs', async () => {
  const { page, problems, dialogs } = await open(env('HOSTILE_HTML'));
  const group = page.locator('details.group').first();
  await group.locator(':scope > summary').click();
  const text = await group.innerText();
  assert.ok(text.includes('</script><script>alert("x")</script>'), 'the query is shown as text');
  assert.equal(await page.locator('script').count(), 1, 'only the page\'s own script');
  assert.ok(text.includes('in relation "we"ird<b>"'), 'the CONTEXT line is shown as text');
  const svgText = await group.locator('div.drawn svg').textContent();
  assert.ok(svgText.includes('<script>alert("x")</script>'), 'the SVG label shows the text');
  await page.waitForTimeout(200);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('live locks: every blocking tree and cycle drawn, the idle root flagged, the unread input named', async () => {
  const { page, problems } = await open(env('SNAPSHOT_HTML'));
  const live = page.locator('section#live');
  assert.ok(await live.isVisible(), 'the live-locks section is shown');
  const trees = live.locator('h4', { hasText: /^Blocking tree \d+/ });
  assert.equal(await trees.count(), 3);
  const cycles = live.locator('h4', { hasText: /^Cycle 1: \d+ → \d+ → \d+/ });
  assert.equal(await cycles.count(), 1);
  const drawn = live.locator('div.drawn svg');
  assert.equal(await drawn.count(), 4);
  for (let i = 0; i < 4; ++i) assert.ok(await drawn.nth(i).isVisible(), `graph ${i + 1} visible`);
  const idle = live.locator('p', { hasText: 'root blocker' }).filter({ has: page.locator('span.tag') });
  assert.equal(await idle.count(), 1);
  assert.match(await idle.innerText(), /idle in transaction for [\d.]+ (ms|s)/);
  assert.match(await live.innerText(), /last query: UPDATE inventory SET qty = qty - 1 WHERE sku = 1;/);
  const inputs = page.locator('table.inputs');
  assert.match(await inputs.innerText(), /snapshot\.csv\s+pglocks-csv\s+14\s+14\s+0\s+0/);
  assert.match(await inputs.innerText(), /no-such\.log[\s\S]*not read: .*cannot open/);
  assert.deepEqual(problems, []);
  await page.close();
});
