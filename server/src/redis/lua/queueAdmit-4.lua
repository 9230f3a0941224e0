--[[
  One tick of admission for a session's waiting room: admits ratePerMin fans a minute (with the
  fraction carried to the next tick), plus one more fan per unit of stock that came back since
  the last tick (expired holds, cancellations). Nobody is admitted while the pre-sale draw is
  running, or when nothing is left; soldOut tells everyone waiting. Safe to run from several
  instances: each tick only counts the time since the last one. A fan's turn starts when the
  fan is admitted (turns[userId] = nowMs), not when the fan next asks: one who polls late must
  not get a longer turn than the rest.

  KEYS[1] state  KEYS[2] meta (the session's inventory: avail)
  KEYS[3] line (userId scored by place)  KEYS[4] turns (userId -> turn start ms)
  ARGV[1] nowMs  ARGV[2] ratePerMin

  Returns { RC_ADMITTED, admittedUpTo, soldOut (0/1), admittedBefore, seq, epoch } (the caller
  records places admittedBefore+1..admittedUpTo in MySQL and checks seq and epoch against it),
  or { RC_NOT_READY } before the opening
]]
local state, meta = KEYS[1], KEYS[2]
local s = redis.call('HMGET', state, 'open', 'drawing', 'admitted', 'seq', 'tickMs', 'carry', 'lastAvail', 'epoch')
if s[1] ~= '1' then return { RC_NOT_READY } end
local now, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local admitted, seq = tonumber(s[3] or '0'), tonumber(s[4] or '0')
local tick = tonumber(s[5] or ARGV[1])
local avail = tonumber(redis.call('HGET', meta, 'avail') or '0')
local soldOut = avail <= 0 and 1 or 0
local elapsed = math.max(0, now - tick)
local budget = tonumber(s[6] or '0') + rate * elapsed / 60000
local returned = math.max(0, avail - tonumber(s[7] or avail))
if s[2] == '1' or soldOut == 1 then budget = 0 end
local step = math.floor(budget) + (soldOut == 1 and 0 or returned)
local next = math.min(seq, admitted + step)
if next > admitted then
  local fans = redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. admitted, next)
  for _, userId in ipairs(fans) do redis.call('HSETNX', KEYS[4], userId, ARGV[1]) end
end
redis.call('HSET', state, 'admitted', next, 'tickMs', now, 'carry', tostring(budget - math.floor(budget)),
  'lastAvail', avail, 'soldOut', soldOut)
return { RC_ADMITTED, next, soldOut, admitted, seq, s[8] or '' }
