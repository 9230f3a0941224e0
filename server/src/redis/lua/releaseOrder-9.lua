--[[
  Gives an order's units back (cancelled, expired, refunded, or never written to MySQL) and
  returns its quantity to the user's limit. Only seats still held or sold by this order are
  freed; a seat it took over from another order's expired hold goes back to that hold while the
  other order still holds in Redis (see freeSeat). Idempotent: a second call changes nothing.

  KEYS[1] meta  KEYS[2] seats  KEYS[3] users  KEYS[4] orders  KEYS[5] pending  KEYS[6] idem
  KEYS[7] zslots  KEYS[8] ids (real-name attendees' IDs: freed with the order)
  KEYS[9] admission: the admission token the order used (a dummy when none)
  ARGV[1] orderId
  ARGV[2] forget: '1' to forget the order and its idempotency key (it never reached MySQL, so a retry
          with the same key must be able to start again), '0' to keep a released tombstone
  ARGV[3] returnTurn: '1' to give the waiting-room turn back (the buyer cancelled), '0' to keep it used

  Returns
    { RC_RELEASED, availAfter, unitsFreed }
    { RC_ALREADY }          released before
    { RC_UNKNOWN_ORDER }    no record: nothing held here
]]
-- @include "_record.lua"

local orderId, forget = ARGV[1], ARGV[2] == '1'
local rec = redis.call('HGET', KEYS[4], orderId)
if not rec then return { RC_UNKNOWN_ORDER } end
local r = parseRecord(rec)
if r.state == 'R' then return { RC_ALREADY } end

local freed = 0
if r.kind == 's' then
  local held, sold = 'H|' .. orderId .. '|', 'S|' .. orderId
  local over = overBySeat(r)
  local current = redis.call('HMGET', KEYS[2], unpack(r.units))
  for i, v in ipairs(current) do
    if v == sold then
      redis.call('HDEL', KEYS[2], r.units[i])
      freed = freed + 1
    elseif v and string.sub(v, 1, #held) == held then
      freed = freed + freeSeat(KEYS[2], KEYS[4], r.units[i], over)
    end
  end
else
  local zoneId = string.sub(r.kind, 2)
  for _, slot in ipairs(r.units) do
    redis.call('ZADD', KEYS[7], zoneId, zoneId .. ':' .. slot)
  end
  freed = #r.units
end

if redis.call('HINCRBY', KEYS[3], r.user, -r.qty) <= 0 then redis.call('HDEL', KEYS[3], r.user) end
for _, id in ipairs(r.ids) do
  if redis.call('HGET', KEYS[8], id) == orderId then redis.call('HDEL', KEYS[8], id) end
end
redis.call('ZREM', KEYS[5], orderId)
if forget then
  redis.call('HDEL', KEYS[4], orderId)
  if r.idem ~= '' then redis.call('HDEL', KEYS[6], r.idem) end
else
  redis.call('HSET', KEYS[4], orderId, recordString('R', r))
end
if ARGV[3] == '1' and redis.call('GET', KEYS[9]) == orderId then redis.call('DEL', KEYS[9]) end
return { RC_RELEASED, redis.call('HINCRBY', KEYS[1], 'avail', freed), freed }
