--[[
  Marks an order's held units as sold once it is paid. Idempotent.

  KEYS[1] meta   KEYS[2] seats   KEYS[3] orders   KEYS[4] pending
  ARGV[1] orderId
  ARGV[2] mode: 'owned'  - only if every seat is still held by this order
                'record' - MySQL (the record) says these seats are this order's: also take back
                           seats whose hold expired or that another unpaid hold grabbed since
                           (that hold's MySQL insert cannot succeed). Never takes a sold seat.

  Returns
    { RC_CONFIRMED }             now sold
    { RC_ALREADY }               was sold before
    { RC_UNKNOWN_ORDER }         no record (never booked here, or Redis lost it)
    { RC_RELEASED }              the order's holds were given back; it cannot be confirmed
    { RC_NOT_OWNER, seatId }     mode 'owned' and a seat is no longer held by this order
    { RC_CONFLICT, seatId }      a seat is sold to another order
]]
-- @include "_record.lua"

local orderId, mode = ARGV[1], ARGV[2]
local rec = redis.call('HGET', KEYS[3], orderId)
if not rec then return { RC_UNKNOWN_ORDER } end
local r = parseRecord(rec)
if r.state == 'S' then return { RC_ALREADY } end
if r.state == 'R' then return { RC_RELEASED } end

if r.kind == 's' then
  local heldPrefix = 'H|' .. orderId .. '|'
  local current = redis.call('HMGET', KEYS[2], unpack(r.units))
  local fresh = 0
  for i, v in ipairs(current) do
    if not v then
      fresh = fresh + 1
    elseif string.sub(v, 1, #heldPrefix) ~= heldPrefix then
      if string.byte(v, 1) == 83 and v ~= 'S|' .. orderId then return { RC_CONFLICT, r.units[i] } end
      if mode ~= 'record' then return { RC_NOT_OWNER, r.units[i] } end
    end
  end
  for _, seat in ipairs(r.units) do redis.call('HSET', KEYS[2], seat, 'S|' .. orderId) end
  if fresh > 0 then redis.call('HINCRBY', KEYS[1], 'avail', 0 - fresh) end
end

redis.call('HSET', KEYS[3], orderId, recordString('S', r))
redis.call('ZREM', KEYS[4], orderId)
return { RC_CONFIRMED }
