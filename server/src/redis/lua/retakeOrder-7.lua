--[[
  Takes the units of a released order again, for a payment that arrived after the order was
  cancelled (a late payment). Seats must be free again (or their holds expired); a zone order
  gets the same number of units, possibly with other slot numbers. No purchase-limit check:
  MySQL's quota CHECK decides that when the order is re-claimed there.

  KEYS[1] meta  KEYS[2] seats  KEYS[3] users  KEYS[4] orders  KEYS[5] pending  KEYS[6] zslots
  KEYS[7] ids (real-name attendees' IDs: they must still be free too)
  ARGV[1] orderId  ARGV[2] userId  ARGV[3] nowMs  ARGV[4] holdUntilMs
  ARGV[5] kind: 's' or 'z<zoneId>'  ARGV[6] quantity  ARGV[7] n  ARGV[8..7+n] attendee ID hashes
  ARGV[8+n..] seat ids (kind 's')

  Returns
    { RC_LOCKED, availAfter, slot1, ... }   held again (slots for a zone order)
    { RC_ALREADY }                          the order holds its units already (retried)
    { RC_NOT_READY }                        inventory not loaded
    { RC_SEAT_TAKEN, seatId } / { RC_SOLD_OUT, left } / { RC_ID_TAKEN, idHash }
]]
-- @include "_record.lua"

local orderId, userId, now, holdUntil, kind, qty = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], tonumber(ARGV[6])
if redis.call('HEXISTS', KEYS[1], 'open') == 0 then return { RC_NOT_READY } end
local rec = redis.call('HGET', KEYS[4], orderId)
if rec and string.byte(rec, 1) ~= 82 then return { RC_ALREADY } end -- not 'R': holds already

local ids = {}
local nIds = tonumber(ARGV[7])
for i = 8, 7 + nIds do ids[#ids + 1] = ARGV[i] end
for _, id in ipairs(ids) do
  if redis.call('HEXISTS', KEYS[7], id) == 1 then return { RC_ID_TAKEN, id } end
end

local units, taken
local over = {}
if kind == 's' then
  units = {}
  for i = 8 + nIds, #ARGV do units[#units + 1] = ARGV[i] end
  local code, fresh
  code, fresh, over = holdSeats(KEYS[1], KEYS[2], units, orderId, now, holdUntil)
  if code then return { code, fresh } end
  taken = fresh -- a seat taken over from an expired hold was never counted as available
else
  local left
  units, left = takeSlots(KEYS[6], string.sub(kind, 2), qty)
  if not units then return { RC_SOLD_OUT, left } end
  taken = qty
end

local idem = ''
if rec then idem = parseRecord(rec).idem end
local r = { user = userId, qty = #units, kind = kind, units = units, idem = idem, ids = ids, over = over }
for _, id in ipairs(ids) do redis.call('HSET', KEYS[7], id, orderId) end
redis.call('HINCRBY', KEYS[3], userId, #units)
redis.call('HSET', KEYS[4], orderId, recordString('H', r))
redis.call('ZADD', KEYS[5], holdUntil, orderId)
local result = { RC_LOCKED, redis.call('HINCRBY', KEYS[1], 'avail', 0 - taken) }
if kind ~= 's' then for _, s in ipairs(units) do result[#result + 1] = s end end
return result
