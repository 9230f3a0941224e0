/**
 * Just enough of WeChat to run Taro's compiled pages under miniprogram-simulate: a `wx` whose
 * APIs are real properties (Taro copies them when app.js loads), App/getApp/getCurrentPages, and
 * Page() turned into Component() because the simulator only knows components.
 */
const path = require('node:path');
const simulate = require('miniprogram-simulate');
const { canvas, canvasHit, resetCanvas } = require('./canvas');

const DIST = path.resolve(__dirname, '../../../dist/weapp');
const API = 'http://127.0.0.1:3000';

const calls = {
  request: [],
  toast: [],
  navigate: [],
  modal: [],
  scan: [],
  vibrate: [],
  audio: [],
  files: [],
};
/** Codes wx.scanCode reads, in order; when none are left it fails as if the staff closed it. */
const scans = [];
const network = { type: 'wifi', listeners: new Set() };
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
  const res0 = typeof handler === 'function' ? handler(opts) : undefined;
  if (res0 && res0.fail) {
    // No answer at all (the network is down): wx.request calls fail.
    // Only the callbacks: a rejected promise nobody awaits would be an unhandled rejection.
    return void later(() => {
      const err = { errMsg: 'request:fail' };
      opts?.fail?.(err);
      opts?.complete?.(err);
    });
  }
  const res =
    typeof handler === 'function'
      ? res0
      : handler !== undefined
        ? { statusCode: 200, data: handler }
        : { statusCode: 404, data: { error: { code: 'NOT_FOUND', message: key } } };
  return ok(opts, { header: {}, ...res });
}

/**
 * A selector query that finds no native nodes, or, once a test turns `canvas.enabled` on, the
 * recording canvas of ./canvas.js.
 */
function selectorQuery() {
  const q = {
    in: () => q,
    select: () => node,
    selectAll: () => node,
    selectViewport: () => node,
    exec: (cb) => later(() => cb?.([canvas.enabled ? canvasHit() : null])),
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

/** wx.scanCode: the next queued code, or a cancel when none is left. */
function scanCode(opts) {
  calls.scan.push(opts?.scanType);
  const code = scans.shift();
  later(() => {
    const res =
      code === undefined
        ? { errMsg: 'scanCode:fail cancel' }
        : { result: code, scanType: 'QR_CODE', errMsg: 'scanCode:ok' };
    (code === undefined ? opts?.fail : opts?.success)?.(res);
    opts?.complete?.(res);
  });
}

/** Switches the simulated network and tells the listeners, as WeChat does. */
function setNetwork(type) {
  network.type = type;
  for (const cb of network.listeners) cb({ isConnected: type !== 'none', networkType: type });
}

function installWx() {
  Object.assign(global.wx, {
    env: { USER_DATA_PATH: 'wxfile://usr' },
    scanCode,
    vibrateShort: (o) => (calls.vibrate.push('short'), ok(o, {})),
    vibrateLong: (o) => (calls.vibrate.push('long'), ok(o, {})),
    getNetworkType: (o) => ok(o, { networkType: network.type }),
    onNetworkStatusChange: (cb) => void network.listeners.add(cb),
    offNetworkStatusChange: (cb) => void network.listeners.delete(cb),
    getFileSystemManager: () => ({
      writeFileSync: (path, data) => void calls.files.push([path, data.byteLength ?? data.length]),
    }),
    createInnerAudioContext: () => {
      const a = {
        play: () => void calls.audio.push(a.src),
        onEnded: () => undefined,
        onError: () => undefined,
        destroy: () => undefined,
      };
      return a;
    },
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

/**
 * A page opened a second time: simulate.load runs the page's js with require(), which jest
 * caches, so Page() would not be called again. Its first Page() options are replayed instead
 * (WeChat, too, makes every instance of a page from one Page() call).
 */
const pageOptions = new Map();
const simUtils = require('miniprogram-simulate/src/utils');
const runJsOnce = simUtils.runJs;
function replayingRunJs(file) {
  if (pageOptions.has(file)) return global.Page(pageOptions.get(file));
  const define = global.Page;
  global.Page = (opts) => {
    pageOptions.set(file, opts);
    return define(opts);
  };
  try {
    runJsOnce(file);
  } finally {
    global.Page = define;
  }
}
simUtils.runJs = replayingRunJs;

let booted = false;
/** Loads app.js once, as WeChat does before any page. */
function boot() {
  if (booted) return;
  booted = true;
  // WeChat's JS engine has none of these; the app brings its own (utils/text-encoding.ts).
  for (const k of ['TextEncoder', 'TextDecoder', 'atob', 'btoa']) {
    delete global[k];
    if (typeof window !== 'undefined') delete window[k];
  }
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

let baseWxml;
/** The node of Taro's page data that an element was rendered from (its data-sid). */
function nodeOf(tree, sid) {
  if (!tree || typeof tree !== 'object') return undefined;
  if (tree.sid === sid) return tree;
  for (const v of Object.values(tree)) {
    const hit = nodeOf(v, sid);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The value WeChat gives attribute `name` of a rendered element: the page data's node bound
 * through the compiled template of its kind (`<view aria-label="{{i.p2||''}}">` in base.wxml).
 * miniprogram-simulate drops attributes its own components do not know (aria-*), so tests of
 * what WeChat's screen reader gets read them here, from the same template and data WeChat uses.
 */
function wxAttr(page, el, name) {
  baseWxml ??= require('node:fs').readFileSync(path.join(DIST, 'base.wxml'), 'utf8');
  const node = nodeOf(page.instance.data, el.getAttribute('data-sid'));
  if (!node) throw new Error('element not found in the page data');
  const tmpl = new RegExp(`<template name="tmpl_0_${node.nn}">\\s*<\\w+([^>]*)>`).exec(baseWxml);
  const bound = tmpl && new RegExp(`\\s${name}="{{i\\.(\\w+)`).exec(tmpl[1]);
  return bound ? node[bound[1]] : undefined;
}

/** Dispatches a WeChat event on the n-th element of a class, through Taro's event handler. */
function fire(page, cls, event = 'tap', options = {}, n = 0) {
  const handle = page.querySelectorAll(`.${cls}`)[n];
  if (!handle) throw new Error(`no .${cls}[${n}] on the page`);
  handle.dispatchEvent(event, options);
}

const text = (page, cls, n = 0) => byClass(page, cls)[n]?.textContent ?? '';

/** Taps the first `.cls` and waits for the navigation it starts; answers every navigation so far. */
async function tapToNavigate(page, cls, what) {
  fire(page, cls, 'tap');
  await until(() => calls.navigate.length, what);
  return calls.navigate;
}

function reset() {
  routes.clear();
  storage.clear();
  scans.length = 0;
  network.type = 'wifi';
  network.listeners.clear();
  for (const k of Object.keys(calls)) calls[k].length = 0;
  resetCanvas();
}

module.exports = {
  API,
  DIST,
  calls,
  canvas,
  routes,
  storage,
  scans,
  setNetwork,
  openPage,
  until,
  reset,
  simulate,
  byClass,
  fire,
  text,
  tapToNavigate,
  wxAttr,
};
