--[[
  Gives back some units of an order (a per-ticket refund succeeded) and returns them to the
  user's limit; the record keeps the others. Only units still held or sold by this order are
  freed (see freeSeat for a seat taken over from an expired hold). The units leave the record,
  so a second call for them changes nothing; when no unit is left the record is released.

  KEYS[1] meta  KEYS[2] seats  KEYS[3] users  KEYS[4] orders  KEYS[5] pending  KEYS[6] zslots
  ARGV[1] orderId
  ARGV[2..] the units: seat ids, or slot numbers of the order's zone

  Returns
    { RC_RELEASED, availAfter, unitsFreed }
    { RC_ALREADY }          none of them is in the record any more (or it was released)
    { RC_UNKNOWN_ORDER }    no record: nothing held here
]]
-- @include "_record.lua"

local orderId = ARGV[1]
local rec = redis.call('HGET', KEYS[4], orderId)
if not rec then return { RC_UNKNOWN_ORDER } end
local r = parseRecord(rec)
if r.state == 'R' then return { RC_ALREADY } end

local drop = {}
for i = 2, #ARGV do drop[ARGV[i]] = true end
local keep, gone, freed = {}, 0, 0
local held, sold = 'H|' .. orderId .. '|', 'S|' .. orderId
local over = overBySeat(r)
local zoneId = string.sub(r.kind, 2)
for _, u in ipairs(r.units) do
  if not drop[u] then
    keep[#keep + 1] = u
  elseif r.kind == 's' then
    gone = gone + 1
    local v = redis.call('HGET', KEYS[2], u)
    if v == sold then
      redis.call('HDEL', KEYS[2], u)
      freed = freed + 1
    elseif v and string.sub(v, 1, #held) == held then
      freed = freed + freeSeat(KEYS[2], KEYS[4], u, over)
    end
  else
    gone = gone + 1
    redis.call('ZADD', KEYS[6], zoneId, zoneId .. ':' .. u)
    freed = freed + 1
  end
end
if gone == 0 then return { RC_ALREADY } end

if redis.call('HINCRBY', KEYS[3], r.user, -gone) <= 0 then redis.call('HDEL', KEYS[3], r.user) end
r.units, r.qty = keep, r.qty - gone
local state = r.state
if #keep == 0 then
  state = 'R'
  redis.call('ZREM', KEYS[5], orderId)
end
redis.call('HSET', KEYS[4], orderId, recordString(state, r))
return { RC_RELEASED, redis.call('HINCRBY', KEYS[1], 'avail', freed), freed }
