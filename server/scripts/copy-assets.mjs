// tsc only emits .js: copy the Lua scripts next to the compiled code that loads them. The old
// copy goes first: a renamed script (lockSeats-8.lua -> lockSeats-12.lua) must not linger in
// dist, where the loader would define both and call the stale one with the wrong KEYS count.
import { cpSync, rmSync } from 'node:fs';
const to = new URL('../dist/redis/lua', import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(new URL('../src/redis/lua', import.meta.url), to, { recursive: true });
