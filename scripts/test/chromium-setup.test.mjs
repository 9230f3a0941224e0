// scripts/lib/chromium.json, the flags every browser run here starts Chromium with: Playwright's
// own --disable-features list survives ours (Chromium keeps only the last of the switch), and a
// new page does not start the top-chrome WebUI renderer (the omnibox popup) that took about
// 1.2 s of CPU beside every page load and slowed the seat-map benchmark's first draw by 40%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE, launchBrowser } from '../../client/test/harness/browser.mjs';
import { chromiumKind, chromiumProcesses } from '../../client/test/harness/procs.mjs';

const featuresOf = (arg) => arg.slice('--disable-features='.length).split(',').filter(Boolean);

test('a new page starts no top-chrome WebUI renderer, and Playwright’s disabled features are kept', async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto('data:text/html,<p>秀票</p>');
    // The WebUI renderer starts with the page's window; give a late one time to show.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const procs = chromiumProcesses();
    const main = procs.find((p) => chromiumKind(p.argv) === 'browser');
    assert.ok(main, `no browser process among ${procs.length} descendants`);

    const webui = procs.filter((p) => chromiumKind(p.argv) === 'top-chrome-webui');
    assert.deepEqual(
      webui.map((p) => p.pid),
      [],
      'a top-chrome WebUI renderer was started for the page',
    );

    const lists = main.argv.filter((a) => a.startsWith('--disable-features=')).map(featuresOf);
    assert.ok(lists.length >= 2, 'expected Playwright’s --disable-features and ours');
    const effective = new Set(lists.at(-1));
    for (const list of lists.slice(0, -1))
      for (const f of list) assert.ok(effective.has(f), `Playwright’s disabled feature ${f} is lost`);
    assert.ok(effective.has('WebUIOmniboxPopup'));
    await context.close();
  } finally {
    await browser.close();
  }
});
