--[[
  Takes N general-admission units of one zone for a new order: check and take in one step,
  so the stock never goes below zero and nothing has to be given back on refusal.

  KEYS[1] meta  KEYS[2] zslots (zset of free units: member 'zoneId:slot', score zoneId)
  KEYS[3..12] users, orders, pending, idem, admission, ids, cooldown, rateUser, rateDevice, rateIp
             (as in lockSeats)

  ARGV[1..15+n] as in lockSeats, then ARGV[16+n] zoneId, ARGV[17+n] quantity

  Returns
    { RC_LOCKED, availAfter, slot1, slot2, ... }   the numbered units taken
    { RC_SOLD_OUT, unitsLeftInZone }
    and the refusals of lockSeats' gate
]]
-- @include "_record.lua"

local K = { meta = KEYS[1], users = KEYS[3], orders = KEYS[4], pending = KEYS[5], idem = KEYS[6], admission = KEYS[7], ids = KEYS[8],
  cooldown = KEYS[9], rateUser = KEYS[10], rateDevice = KEYS[11], rateIp = KEYS[12] }
local q, first = readRequest()
local zoneId, qty = ARGV[first], tonumber(ARGV[first + 1])

local refused = gate(K, q, qty)
if refused then return refused end

local slots, left = takeSlots(KEYS[2], zoneId, qty)
if not slots then return { RC_SOLD_OUT, left } end
book(K, q, { user = q.userId, qty = qty, kind = 'z' .. zoneId, units = slots, idem = q.idem, ids = q.ids })
local result = { RC_LOCKED, redis.call('HINCRBY', KEYS[1], 'avail', 0 - qty) }
for _, s in ipairs(slots) do result[#result + 1] = s end
return result
