// tsc only emits .js: copy the Lua scripts next to the compiled code that loads them.
import { cpSync } from 'node:fs';
cpSync(new URL('../src/redis/lua', import.meta.url), new URL('../dist/redis/lua', import.meta.url), {
  recursive: true,
});
