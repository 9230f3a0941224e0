import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createPayEnv, type PayEnv } from '../../helpers/pay-env';
import { ADMIN_PASSWORD } from '../helpers';
import chromiumSetup from '../../../../scripts/lib/chromium.json';

export const ARTIFACTS = path.resolve(__dirname, '../../../../test-artifacts/admin');

export interface Browser {
  page: Page;
  /** Console errors and React/antd warnings seen so far. */
  problems: string[];
  shot(name: string): Promise<void>;
  /** axe-core's serious and critical violations on the page as it is now (rule id and a few targets). */
  axe(): Promise<string[]>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile and no background traffic (the machine's network is closed). */
export async function openBrowser(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(path.join(tmpdir(), 'showtix-admin-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? chromiumSetup.executable,
    headless: true,
    viewport: { width: 1440, height: 1000 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    args: chromiumSetup.args,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (m) => {
    // Failed requests are reported below with their address; the console line has none.
    if (m.text().startsWith('Failed to load resource')) return;
    if (m.type() === 'error' || (m.type() === 'warning' && /Warning|antd/.test(m.text())))
      problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('response', (r) => {
    const expected = r.status() === 401 && r.url().endsWith('/api/v1/admin/login');
    if (r.status() >= 400 && !expected)
      problems.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  let n = 0;
  return {
    page,
    problems,
    async shot(name) {
      // The viewport, not the full page: the menu is sticky, and full-page capture misplaces it.
      await page.screenshot({ path: path.join(ARTIFACTS, `${String(++n).padStart(2, '0')}-${name}.png`) });
    },
    async axe() {
      // Evaluated, not added as a <script>: the admin page's CSP refuses inline scripts.
      await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
      const found = await page.evaluate(async () => {
        const w = (globalThis as unknown as { window: unknown }).window as {
          axe: { run: (o: unknown) => Promise<AxeResult> };
        };
        const r = await w.axe.run({
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        });
        return r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          targets: v.nodes.map((n) => n.target.join(' ')),
        }));
      });
      return found
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.targets.slice(0, 3).join(' | ')}`);
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

const DIST = path.resolve(__dirname, '../../../../admin/dist');

export interface AdminStack {
  p: PayEnv;
  b: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * The real server (with the simulator) serving the built admin page, logged in as `organiser`
 * by the test, and one headless Chromium: the frame of each admin browser test file.
 */
export async function startAdminStack(tag: string): Promise<AdminStack> {
  if (!existsSync(path.join(DIST, 'index.html')))
    throw new Error('admin/dist is missing: run npm run build -w admin first (npm run e2e -w admin does)');
  const dataDir = mkdtempSync(path.join(tmpdir(), `showtix-admin-${tag}-`));
  const p = await createPayEnv({
    env: { ADMIN_USERNAME: 'organiser', ADMIN_PASSWORD, ADMIN_DIST_DIR: DIST, DATA_DIR: dataDir },
  });
  const b = await openBrowser();
  return {
    p,
    b,
    page: b.page,
    async close() {
      await b.close();
      await p.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
