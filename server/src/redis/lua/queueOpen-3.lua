--[[
  The sale opens: the pre-sale pool is frozen for its random draw, and later arrivals are
  numbered after it. Idempotent.

  KEYS[1] state  KEYS[2] pre  KEYS[3] frozen
  ARGV[1] seed: the draw's seed (kept in state, so a draw interrupted by a crash is redone identically)
  ARGV[2] nowMs

  Returns { RC_OPENED, poolSize } or { RC_ALREADY }, or { RC_NOT_READY } when the state hash
  (with its epoch) is missing: the queue is rebuilt from MySQL first
]]
if not redis.call('HGET', KEYS[1], 'epoch') then return { RC_NOT_READY } end
if redis.call('HGET', KEYS[1], 'open') == '1' then return { RC_ALREADY } end
local n = redis.call('ZCARD', KEYS[2])
if n > 0 then redis.call('RENAME', KEYS[2], KEYS[3]) end
redis.call('HSET', KEYS[1], 'open', '1', 'seq', n, 'pool', n, 'seed', ARGV[1], 'drawing', n > 0 and '1' or '0',
  'admitted', 0, 'tickMs', ARGV[2], 'carry', '0')
return { RC_OPENED, n }
