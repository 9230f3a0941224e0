--[[
  Takes N general-admission units of one zone for a new order: check and take in one step,
  so the stock never goes below zero and nothing has to be given back on refusal.

  KEYS[1] meta     KEYS[2] zslots (zset of free units: member 'zoneId:slot', score zoneId)
  KEYS[3] users    KEYS[4] orders   KEYS[5] pending   KEYS[6] idem   (as in lockSeats)

  ARGV[1] orderId  ARGV[2] userId  ARGV[3] nowMs  ARGV[4] holdUntilMs  ARGV[5] purchase limit
  ARGV[6] idempotency field or ''  ARGV[7] request hash  ARGV[8] zoneId  ARGV[9] quantity

  Returns
    { RC_LOCKED, availAfter, slot1, slot2, ... }   the numbered units taken
    { RC_SOLD_OUT, unitsLeftInZone }
    and RC_REPLAY, RC_NOT_READY, RC_NOT_ON_SALE, RC_IDEMPOTENCY_CONFLICT, RC_LIMIT_EXCEEDED as in lockSeats
]]
-- @include "_record.lua"

local orderId, userId, holdUntil, zoneId, qty = ARGV[1], ARGV[2], ARGV[4], ARGV[8], tonumber(ARGV[9])

local refused = gate(KEYS[1], KEYS[3], KEYS[4], KEYS[6], orderId, userId, ARGV[5], ARGV[6], ARGV[7], qty)
if refused then return refused end

local slots, left = takeSlots(KEYS[2], zoneId, qty)
if not slots then return { RC_SOLD_OUT, left } end
local r = { user = userId, qty = qty, kind = 'z' .. zoneId, units = slots, idem = ARGV[6] }
book(KEYS[3], KEYS[4], KEYS[5], KEYS[6], orderId, holdUntil, ARGV[7], r)
local result = { RC_LOCKED, redis.call('HINCRBY', KEYS[1], 'avail', 0 - qty) }
for _, s in ipairs(slots) do result[#result + 1] = s end
return result
