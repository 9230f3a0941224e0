--[[
  Re-binds one real-name attendee of an order to another ID document: a ticket transfer was
  accepted and MySQL moved the order's attendee_claims row (the record). The ids hash and the
  order's record follow it, so a purchase with the receiver's ID is refused here at once, and the
  giver's ID may buy again. Safe to repeat; a rebuild from MySQL gives the same state.

  KEYS[1] orders  KEYS[2] ids
  ARGV[1] orderId  ARGV[2] fromHash  ARGV[3] toHash

  Returns
    { RC_CONFIRMED }        moved (or moved before)
    { RC_UNKNOWN_ORDER }    no live record of the order here: nothing to move
]]
-- @include "_record.lua"

local orderId, from, to = ARGV[1], ARGV[2], ARGV[3]
local rec = redis.call('HGET', KEYS[1], orderId)
if not rec then return { RC_UNKNOWN_ORDER } end
local r = parseRecord(rec)
if r.state == 'R' then return { RC_UNKNOWN_ORDER } end

local changed = false
for i, id in ipairs(r.ids) do
  if id == from then
    r.ids[i] = to
    changed = true
  end
end
if changed then redis.call('HSET', KEYS[1], orderId, recordString(r.state, r)) end
if redis.call('HGET', KEYS[2], from) == orderId then redis.call('HDEL', KEYS[2], from) end
redis.call('HSET', KEYS[2], to, orderId)
return { RC_CONFIRMED }
