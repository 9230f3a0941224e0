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
  retakeOrder(...args: (string | number)[]): Promise<ScriptReply>;
  queueJoin(...args: (string | number)[]): Promise<ScriptReply>;
  queueStatus(...args: (string | number)[]): Promise<ScriptReply>;
  queueOpen(...args: (string | number)[]): Promise<ScriptReply>;
  queueAdmit(...args: (string | number)[]): Promise<ScriptReply>;
  leaderLease(...args: (string | number)[]): Promise<ScriptReply>;
}

export type ScriptedRedis = Redis & InventoryCommands;

/** Resolves `-- @include "file.lua"` lines (one level, as BullMQ does) and prepends the codes. */
export function loadScriptSource(file: string): string {
  const body = readFileSync(path.join(LUA_DIR, file), 'utf8').replace(
    /^-- @include "([\w.-]+)"$/m,
    (_, inc: string) => readFileSync(path.join(LUA_DIR, inc), 'utf8'),
  );
  return luaPrelude() + body;
}

/** Defines every `name-<numKeys>.lua` script once on the client (EVALSHA with EVAL fallback). */
export function defineScripts(redis: Redis): ScriptedRedis {
  for (const file of readdirSync(LUA_DIR)) {
    const m = /^([a-zA-Z]+)-(\d+)\.lua$/.exec(file);
    if (!m) continue;
    redis.defineCommand(m[1]!, { numberOfKeys: Number(m[2]), lua: loadScriptSource(file) });
  }
  return redis as ScriptedRedis;
}
