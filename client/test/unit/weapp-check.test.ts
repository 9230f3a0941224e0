/**
 * The weapp build check that `npm test` runs after the weapp build (scripts/weapp-check.cjs),
 * on small builds made here: sizes against WeChat's limits, staff code kept in its sub-package,
 * release settings.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { checkDist, LIMITS } = require('../../scripts/weapp-check.cjs') as {
  checkDist: (dist: string, limits?: object, env?: object) => { problems: string[] };
  LIMITS: { mainBytes: number; subBytes: number; totalBytes: number };
};

const RELEASE = { urlCheck: true, es6: true, enhance: true, minified: true };
let dir: string;

function build(o: { files?: Record<string, string | number>; app?: object; project?: object } = {}) {
  const files: Record<string, string | number> = {
    'app.json': JSON.stringify({
      pages: ['pages/index/index'],
      subPackages: [{ root: 'packages/staff', pages: ['scan/index'] }],
      lazyCodeLoading: 'requiredComponents',
      ...o.app,
    }),
    'project.config.json': JSON.stringify({ appid: 'wxapp', setting: RELEASE, ...o.project }),
    'app.js': 'require("./common"); /* the rest of the main package: */ ' + ' '.repeat(200),
    'pages/index/index.js': 'request("/api/v1/staff/me")',
    'packages/staff/scan/index.js': 'request("/api/v1/checkin")',
    ...o.files,
  };
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), typeof content === 'number' ? Buffer.alloc(content) : content);
  }
  return dir;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'weapp-check-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("uses WeChat's limits: 2 MB main package and sub-package, 20 MB in all", () => {
  expect(LIMITS).toEqual({
    mainBytes: 2 * 1024 * 1024,
    subBytes: 2 * 1024 * 1024,
    totalBytes: 20 * 1024 * 1024,
  });
  expect(checkDist(build(), {}, { TARO_APP_ID: 'wxapp' }).problems).toEqual([]);
});

it('fails a main package of 2 MB, a sub-package of 2 MB, a whole app over budget; maps do not count', () => {
  build({
    files: {
      'vendors.js': 2 * 1024 * 1024 - 100,
      'vendors.js.map': 5 * 1024 * 1024,
      'packages/staff/sub-vendors.js': 2 * 1024 * 1024,
    },
  });
  const { problems } = checkDist(dir, { totalBytes: 3 * 1024 * 1024 });
  expect(problems).toEqual([
    expect.stringMatching(/^main package 2048\.\d KB ≥ 2048\.0 KB$/),
    expect.stringMatching(/^sub-package packages\/staff\/ 2048\.\d KB/),
    expect.stringMatching(/^whole app 4096\.\d KB ≥ 3072\.0 KB$/),
  ]);
});

it('fails when the gate’s check-in code is in the main package', () => {
  build({ files: { 'common.js': 'function checkin(){return request("/api/v1/checkin")}' } });
  expect(checkDist(dir).problems).toEqual([
    'staff-only code (/api/v1/checkin) in the main package: common.js',
  ]);
});

it('fails without lazyCodeLoading, with another AppID than TARO_APP_ID, or without release settings', () => {
  build({
    app: { lazyCodeLoading: undefined },
    project: { appid: 'touristappid', setting: { ...RELEASE, urlCheck: false, es6: false } },
  });
  expect(checkDist(dir, {}, { TARO_APP_ID: 'wxapp' }).problems).toEqual([
    'app.json lazyCodeLoading is undefined, not "requiredComponents"',
    'project.config.json appid touristappid, not TARO_APP_ID wxapp',
    'project.config.json setting.urlCheck is not true',
    'project.config.json setting.es6 is not true',
  ]);
});
