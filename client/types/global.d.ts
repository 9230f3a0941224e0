/// <reference types="@tarojs/taro" />

declare module '*.png';
declare module '*.svg';
declare module '*.scss';

declare namespace NodeJS {
  interface ProcessEnv {
    NODE_ENV: 'development' | 'production' | 'test';
    TARO_ENV: 'weapp' | 'h5' | string;
    /** Set at build time by config/index.ts (weapp only; H5 calls its own origin). */
    TARO_APP_API_BASE?: string;
    /** The WeChat simulator the H5 build asks for login codes. */
    TARO_APP_WX_SIM_URL?: string;
    /** The mini-program's AppID (also written into dist/weapp/project.config.json by Taro). */
    TARO_APP_ID?: string;
  }
}
