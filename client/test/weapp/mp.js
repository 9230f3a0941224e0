/**
 * Just enough of WeChat to run Taro's compiled pages under miniprogram-simulate: a `wx` whose
 * APIs are real properties (Taro copies them when app.js loads), App/getApp/getCurrentPages, and
 * Page() turned into Component() because the simulator only knows components.
 */
const path = require('node:path');
const simulate = require('miniprogram-simulate');

const DIST = path.resolve(__dirname, '../../../dist/weapp');
const API = 'http://127.0.0.1:3000';

const calls = { request: [], toast: [], navigate: [], modal: [] };
const routes = new Map();
const storage = new Map();
const stack = [];
let app;

const later = (fn) => setTimeout(fn, 0);
const ok = (opts, res) =>
  new Promise((resolve) =>
    later(() => {
      opts?.success?.(res);
      opts?.complete?.(res);
      resolve(res);
    }),
  );

/** Answers wx.request from `routes` ("GET /api/v1/..." -> body, or a function of the request). */
function request(opts) {
  const url = new URL(opts.url);
  const key = `${opts.method ?? 'GET'} ${url.pathname}`;
  calls.request.push({ key, data: opts.data, header: opts.header });
  const handler = routes.get(key);
  const res =
    typeof handler === 'function'
      ? handler(opts)
      : handler !== undefined
        ? { statusCode: 200, data: handler }
        : { statusCode: 404, data: { error: { code: 'NOT_FOUND', message: key } } };
  return ok(opts, { header: {}, ...res });
}

/** A selector query that finds no native nodes (there is no canvas here). */
function selectorQuery() {
  const q = {
    in: () => q,
    select: () => node,
    selectAll: () => node,
    selectViewport: () => node,
    exec: (cb) => later(() => cb?.([null])),
  };
  const node = { fields: () => q, boundingClientRect: () => q, scrollOffset: () => q, node: () => q };
  return q;
}

const SYSTEM = {
  windowWidth: 375,
  windowHeight: 667,
  screenWidth: 375,
  screenHeight: 667,
  pixelRatio: 2,
  platform: 'devtools',
  language: 'zh_CN',
  version: '8.0.50',
  SDKVersion: '3.5.0',
  statusBarHeight: 20,
};

function installWx() {
  Object.assign(global.wx, {
    request,
    getSystemInfoSync: () => ({ ...SYSTEM }),
    getWindowInfo: () => ({ ...SYSTEM }),
    getSystemInfo: (o) => ok(o, { ...SYSTEM }),
    createSelectorQuery: selectorQuery,
    getStorageSync: (k) => (storage.has(k) ? storage.get(k) : ''),
    setStorageSync: (k, v) => void storage.set(k, v),
    removeStorageSync: (k) => void storage.delete(k),
    login: (o) => ok(o, { code: 'mp-code', errMsg: 'login:ok' }),
    requestPayment: (o) => ok(o, { errMsg: 'requestPayment:ok' }),
    showToast: (o) => (calls.toast.push(o.title), ok(o, {})),
    hideToast: (o) => ok(o, {}),
    showModal: (o) => (calls.modal.push(o), ok(o, { confirm: true, cancel: false })),
    showLoading: (o) => ok(o, {}),
    hideLoading: (o) => ok(o, {}),
    stopPullDownRefresh: (o) => ok(o, {}),
    nextTick: (fn) => later(fn),
    navigateTo: (o) => (calls.navigate.push(['navigateTo', o.url]), ok(o, {})),
    redirectTo: (o) => (calls.navigate.push(['redirectTo', o.url]), ok(o, {})),
    reLaunch: (o) => (calls.navigate.push(['reLaunch', o.url]), ok(o, {})),
    navigateBack: (o) => (calls.navigate.push(['navigateBack', o?.delta ?? 1]), ok(o, {})),
  });
}

/** Page options as a Component: page lifecycles become lifetimes, functions become methods. */
function pageAsComponent(opts, route, query) {
  const methods = {};
  for (const [k, v] of Object.entries(opts)) if (typeof v === 'function') methods[k] = v;
  return {
    data: opts.data ?? {},
    methods,
    lifetimes: {
      attached() {
        this.route = route;
        this.__route__ = route;
        this.options = query;
        stack.push(this);
        this.onLoad?.(query);
        this.onShow?.();
      },
      ready() {
        this.onReady?.();
      },
      detached() {
        this.onUnload?.();
        stack.splice(stack.indexOf(this), 1);
      },
    },
  };
}

let booted = false;
/** Loads app.js once, as WeChat does before any page. */
function boot() {
  if (booted) return;
  booted = true;
  installWx();
  global.App = (cfg) => {
    app = cfg;
  };
  global.getApp = () => app;
  global.getCurrentPages = () => stack;
  require(path.join(DIST, 'app.js'));
  app.onLaunch?.({ path: 'pages/index/index', query: {}, scene: 1001 });
  app.onShow?.({ path: 'pages/index/index', query: {}, scene: 1001 });
}

/** Renders one compiled page with its query and attaches it; returns the j-component handle. */
function openPage(route, query = {}) {
  boot();
  const pending = { route, query };
  global.Page = (opts) => global.Component(pageAsComponent(opts, pending.route, pending.query));
  const id = simulate.load(path.join(DIST, route), { rootPath: DIST });
  const page = simulate.render(id);
  page.attach(document.createElement('parent-wrapper'));
  return page;
}

/** Polls (the simulator renders asynchronously) until fn returns something truthy. */
async function until(fn, what, tries = 400) {
  for (let i = 0; i < tries; i++) {
    const v = fn();
    if (v) return v;
    await simulate.sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Rendered elements of a class (simulate prefixes classes with the page's tag, "main--"). */
function byClass(page, cls) {
  return [...page.dom.querySelectorAll(`.main--${cls}`)];
}

/** Dispatches a WeChat event on the n-th element of a class, through Taro's event handler. */
function fire(page, cls, event = 'tap', options = {}, n = 0) {
  const handle = page.querySelectorAll(`.${cls}`)[n];
  if (!handle) throw new Error(`no .${cls}[${n}] on the page`);
  handle.dispatchEvent(event, options);
}

const text = (page, cls, n = 0) => byClass(page, cls)[n]?.textContent ?? '';

function reset() {
  routes.clear();
  storage.clear();
  for (const k of Object.keys(calls)) calls[k].length = 0;
}

module.exports = { API, DIST, calls, routes, storage, openPage, until, reset, simulate, byClass, fire, text };
