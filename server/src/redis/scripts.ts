import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { luaPrelude } from './codes';

const LUA_DIR = path.join(__dirname, 'lua');

/** Reply of every script: a code first, then script-specific values. */
export type ScriptReply = [number, ...(string | number)[]];

export interface InventoryCommands {
  lockSeats(...args: (string | number)[]): Promise<ScriptReply>;
  takeZone(...args: (string | number)[]): Promise<ScriptReply>;
  confirmOrder(...args: (string | number)[]): Promise<ScriptReply>;
  releaseOrder(...args: (string | number)[]): Promise<ScriptReply>;
  releaseUnits(...args: (string | number)[]): Promise<ScriptReply>;
  moveIds(...args: (string | number)[]): Promise<ScriptReply>;
  retakeOrder(...args: (string | number)[]): Promise<ScriptReply>;
  moveAttendee(...args: (string | number)[]): Promise<ScriptReply>;
  queueJoin(...args: (string | number)[]): Promise<ScriptReply>;
  queueStatus(...args: (string | number)[]): Promise<ScriptReply>;
  queueOpen(...args: (string | number)[]): Promise<ScriptReply>;
  queueAdmit(...args: (string | number)[]): Promise<ScriptReply>;
  reserveUnits(...args: (string | number)[]): Promise<ScriptReply>;
  unreserveUnits(...args: (string | number)[]): Promise<ScriptReply>;
  leaderLease(...args: (string | number)[]): Promise<ScriptReply>;
}

export type ScriptedRedis = Redis & InventoryCommands;

const INCLUDE = /^-- @include "([^"]*)"\s*$/gm;

/**
 * Resolves every `-- @include "file.lua"` line (includes of includes too, each file once) and
 * prepends the codes. A missing or malformed include throws naming the script: a script that
 * loads without its helpers fails only when a request runs it.
 */
export function loadScriptSource(file: string, dir = LUA_DIR): string {
  const seen = new Set<string>();
  const expand = (name: string, from: string): string => {
    if (!/^[\w.-]+\.lua$/.test(name)) throw new Error(`${from}: bad @include "${name}"`);
    if (seen.has(name)) return `-- (${name} included above)`;
    seen.add(name);
    let text: string;
    try {
      text = readFileSync(path.join(dir, name), 'utf8');
    } catch {
      throw new Error(`${from}: @include "${name}" not found in ${dir}`);
    }
    return text.replace(INCLUDE, (_, inc: string) => expand(inc, name));
  };
  return luaPrelude() + expand(file, file);
}

const isNoScript = (err: unknown): boolean => err instanceof Error && err.message.startsWith('NOSCRIPT');

type Run = (...args: (string | number)[]) => Promise<ScriptReply>;

/**
 * Defines every `name-<numKeys>.lua` script once on the client (EVALSHA, EVAL on a new socket).
 *
 * Script caches are per node and not replicated: a replica promoted by a Cluster failover, or a
 * restarted Redis, has none. ioredis resends a NOSCRIPT once, but during a failover that resend
 * can itself meet CLUSTERDOWN, be retried, and go out as EVALSHA again (its socket counts as
 * loaded), so a second NOSCRIPT reached the purchase as a 500 (seen in the cluster bench). A
 * NOSCRIPT reply means the script did not run, so running it once more with EVAL (which also
 * caches it on that node) still runs it exactly once.
 */
export function defineScripts(redis: Redis): ScriptedRedis {
  for (const file of readdirSync(LUA_DIR)) {
    const m = /^([a-zA-Z]+)-(\d+)\.lua$/.exec(file);
    if (!m) continue;
    const [name, numKeys, lua] = [m[1]!, Number(m[2]), loadScriptSource(file)];
    redis.defineCommand(name, { numberOfKeys: numKeys, lua });
    const commands = redis as unknown as Record<string, Run>;
    const viaSha = commands[name]!;
    // Pipelines (auto-pipelining's too) copy the client's function and call it with themselves
    // as `this`: there it queues the command and returns the pipeline, untouched.
    commands[name] = function (this: unknown, ...args) {
      const reply = viaSha.apply(this, args);
      if (this !== redis) return reply;
      return reply.catch((err: unknown) => {
        if (!isNoScript(err)) throw err;
        return redis.eval(lua, numKeys, ...args) as Promise<ScriptReply>;
      });
    };
  }
  return redis as ScriptedRedis;
}
