// scripts/lib/chromium.json, the flags every browser run here starts Chromium with: Playwright's
// own --disable-features list survives ours (Chromium keeps only the last of the switch), and a
// new page does not start the top-chrome WebUI renderer (the omnibox popup) that took about
// 1.2 s of CPU beside every page load and slowed the seat-map benchmark's first draw by 40%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { PHONE, launchBrowser } from '../../client/test/harness/browser.mjs';

/**
 * A process's arguments. Chromium's zygote children rewrite their command line as one string
 * with spaces instead of NULs, so split on both (a flag never holds a space).
 */
const argvOf = (pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]+/);

/** The command lines of this process's descendants (the browser and its children). */
function descendants(root) {
  const procs = [];
  for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      procs.push({ pid: Number(pid), ppid, argv: argvOf(pid) });
    } catch {
      // gone while we looked
    }
  }
  const mine = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs)
      if (mine.has(p.ppid) && !mine.has(p.pid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  return procs.filter((p) => p.pid !== root && mine.has(p.pid));
}

const featuresOf = (arg) => arg.slice('--disable-features='.length).split(',').filter(Boolean);

test('a new page starts no top-chrome WebUI renderer, and Playwright’s disabled features are kept', async () => {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto('data:text/html,<p>秀票</p>');
    // The WebUI renderer starts with the page's window; give a late one time to show.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const procs = descendants(process.pid).filter((p) => p.argv[0].includes('chrom'));
    const main = procs.find((p) => !p.argv.some((a) => a.startsWith('--type=')));
    assert.ok(main, `no browser process among ${procs.length} descendants`);

    const webui = procs.filter((p) => p.argv.includes('--top-chrome-webui'));
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
