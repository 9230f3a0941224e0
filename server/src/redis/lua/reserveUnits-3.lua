--[[
  Holds units back from public sale (the organiser's reservation, comp/service.ts): seats get
  the reserved value 'S|0' (sold to no order: the take scripts refuse it, the seat map shows it
  unavailable), a zone's units leave the free slots. All or nothing; the sale need not be open.
  A seat already reserved counts as done (a retry reserves nothing twice); a seat held (even by
  an expired hold whose order may still be in MySQL) or sold is refused.

  KEYS[1] meta   KEYS[2] seats   KEYS[3] zslots
  ARGV[1] kind  's' (seats) or the zone id
  ARGV[2] quantity  units of the zone (0 for seats)
  ARGV[3..] the seat ids (seats)

  Returns
    { RC_LOCKED, availAfter, units... }  the units newly reserved (seat ids or slot numbers)
    { RC_NOT_READY }                     inventory not loaded: rebuild from MySQL
    { RC_SEAT_TAKEN, seatId }            a seat is held or sold
    { RC_SOLD_OUT, left }                fewer free units in the zone than asked
]]
-- @include "_record.lua"

if redis.call('HEXISTS', KEYS[1], 'open') == 0 then return { RC_NOT_READY } end
local reserved = 'S|0'
local units = {}
if ARGV[1] == 's' then
  local seats = {}
  for i = 3, #ARGV do seats[#seats + 1] = ARGV[i] end
  local current = redis.call('HMGET', KEYS[2], unpack(seats))
  for i, v in ipairs(current) do
    if v and v ~= reserved then return { RC_SEAT_TAKEN, seats[i] } end
    if not v then units[#units + 1] = seats[i] end
  end
  for _, seat in ipairs(units) do redis.call('HSET', KEYS[2], seat, reserved) end
else
  local slots, left = takeSlots(KEYS[3], ARGV[1], tonumber(ARGV[2]))
  if not slots then return { RC_SOLD_OUT, left } end
  units = slots
end
local result = { RC_LOCKED, redis.call('HINCRBY', KEYS[1], 'avail', 0 - #units) }
for _, u in ipairs(units) do result[#result + 1] = u end
return result
