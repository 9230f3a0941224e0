import path from 'node:path';
import { defineConfig, type UserConfigExport } from '@tarojs/cli';
import devConfig from './dev';
import prodConfig from './prod';

/**
 * The mini-program's AppID is a build setting: TARO_APP_ID (shell or root .env). Taro writes it
 * into dist/weapp/project.config.json (otherwise the root file's touristappid stays). A release
 * build (its API on https, as WeChat's domain allow-list requires) must have one, and it must be
 * the server's WECHAT_APPID when both are known here.
 */
function weappSettings(apiBase: string): { release: boolean } {
  const appId = process.env.TARO_APP_ID;
  const serverAppId = process.env.WECHAT_APPID;
  if (appId && serverAppId && appId !== serverAppId) {
    throw new Error(
      `TARO_APP_ID (${appId}) differs from WECHAT_APPID (${serverAppId}): WeChat would refuse its logins and payments`,
    );
  }
  const release = apiBase.startsWith('https://');
  if (release && (!appId || appId === 'touristappid')) {
    throw new Error('a release build (TARO_APP_API_BASE on https) needs TARO_APP_ID, the mini-program AppID');
  }
  return { release };
}

/**
 * H5: zod (about 500 KB minified, half the start bundle) only checks input on the pages that
 * take some (attendees, contact phone, order): one async chunk loaded with the first of them,
 * neither in app.js nor copied into each page's chunk. client/src/services/shared.ts stays
 * zod-free for this (client/test/unit/shared-imports.test.ts).
 */
function zodAsyncChunk(chain: {
  optimization: { get(key: string): any; splitChunks(value: object): unknown };
}): void {
  const splitChunks = chain.optimization.get('splitChunks');
  if (!splitChunks) return; // Taro turns splitting off for native-component builds
  const zod = {
    name: 'zod',
    test: /[\\/]node_modules[\\/]zod[\\/]/,
    chunks: 'async',
    priority: 200,
    enforce: true,
  };
  chain.optimization.splitChunks({ ...splitChunks, cacheGroups: { ...splitChunks.cacheGroups, zod } });
}

/**
 * Taro config of the fan's mini-program. It lives at the repo root (Taro reads `config/` from
 * the working directory) while the sources live in `client/src`; outputs go to `dist/<platform>`.
 */
export default defineConfig<'webpack5'>(async (merge) => {
  const platform = process.env.TARO_ENV ?? 'weapp';
  const apiBase = process.env.TARO_APP_API_BASE || 'http://127.0.0.1:3000';
  const { release } = platform === 'weapp' ? weappSettings(apiBase) : { release: false };
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'showtix-client',
    date: '2026-11-30',
    designWidth: 750,
    deviceRatio: { 640: 2.34 / 2, 750: 1, 375: 2, 828: 1.81 / 2 },
    sourceRoot: 'client/src',
    outputRoot: `dist/${platform}`,
    plugins: [path.resolve(__dirname, 'plugins/aria.js')],
    // API and simulator addresses are fixed at build time (shell env or a root .env file wins over
    // these defaults); the code reads them as process.env.TARO_APP_*. See client/src/services/config.ts.
    env: {
      TARO_APP_API_BASE: JSON.stringify(apiBase),
      TARO_APP_WX_SIM_URL: JSON.stringify(process.env.TARO_APP_WX_SIM_URL || 'http://127.0.0.1:3100'),
      TARO_APP_ID: JSON.stringify(process.env.TARO_APP_ID || ''),
    },
    defineConstants: {},
    alias: {
      '@': path.resolve(__dirname, '..', 'client', 'src'),
    },
    // A development build may call http://127.0.0.1 in DevTools (urlCheck off); a release never.
    copy: {
      patterns:
        platform === 'weapp' && !release
          ? [
              {
                from: 'config/weapp/project.private.config.json',
                to: `dist/weapp/project.private.config.json`,
              },
            ]
          : [],
      options: {},
    },
    framework: 'react',
    compiler: 'webpack5',
    cache: { enable: false },
    mini: {
      postcss: {
        pxtransform: { enable: true, config: {} },
        cssModules: {
          enable: false,
          config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' },
        },
      },
    },
    h5: {
      publicPath: './',
      staticDirectory: 'static',
      // Hash routing: deep links and reloads work from any static file server.
      router: { mode: 'hash' },
      webpackChain: zodAsyncChunk,
      output: {
        filename: 'js/[name].[contenthash:8].js',
        chunkFilename: 'js/[name].[chunkhash:8].js',
      },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[contenthash:8].css',
        chunkFilename: 'css/[name].[chunkhash].css',
      },
      postcss: {
        autoprefixer: { enable: true, config: {} },
        cssModules: {
          enable: false,
          config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' },
        },
      },
    },
  };
  if (process.env.NODE_ENV === 'development') return merge({}, baseConfig, devConfig);
  return merge({}, baseConfig, prodConfig);
});
