--[[
  Holds 1..N seats for a new order, all or nothing, and counts them against the user's limit.

  KEYS[1] meta     session hash: open ('1' selling, '0' not), avail (units left)
  KEYS[2] seats    hash seatId -> 'H|orderId|holdUntilMs' or 'S|orderId'
  KEYS[3] users    hash userId -> units in live orders
  KEYS[4] orders   hash orderId -> record (see _record.lua)
  KEYS[5] pending  zset orderId scored by holdUntilMs
  KEYS[6] idem     hash 'userId:key' -> 'orderId|requestHash'

  ARGV[1] orderId  ARGV[2] userId  ARGV[3] nowMs  ARGV[4] holdUntilMs  ARGV[5] purchase limit
  ARGV[6] idempotency field or ''  ARGV[7] request hash  ARGV[8..] seat ids

  Returns
    { RC_LOCKED, availAfter }        held
    { RC_REPLAY, orderId }           same idempotency key and request, or this order is already booked
    { RC_NOT_READY }                 inventory not loaded (Redis lost it): rebuild from MySQL
    { RC_NOT_ON_SALE }
    { RC_IDEMPOTENCY_CONFLICT }      same key, different request
    { RC_LIMIT_EXCEEDED, used }
    { RC_SEAT_TAKEN, seatId }        a seat is sold or held by an unexpired hold
    { RC_SOLD_OUT, seatId }          the same, and nothing is left in the session
  A hold past its holdUntilMs counts as free: its seat may be taken over.
]]
-- @include "_record.lua"

local orderId, userId, now, holdUntil = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local seats = {}
for i = 8, #ARGV do seats[#seats + 1] = ARGV[i] end

local refused = gate(KEYS[1], KEYS[3], KEYS[4], KEYS[6], orderId, userId, ARGV[5], ARGV[6], ARGV[7], #seats)
if refused then return refused end

local code, fresh = holdSeats(KEYS[1], KEYS[2], seats, orderId, now, holdUntil)
if code then return { code, fresh } end
local r = { user = userId, qty = #seats, kind = 's', units = seats, idem = ARGV[6] }
book(KEYS[3], KEYS[4], KEYS[5], KEYS[6], orderId, holdUntil, ARGV[7], r)
-- 0 - n, not -n: Lua 5.1 turns -0 into the string '-0', which HINCRBY refuses.
return { RC_LOCKED, redis.call('HINCRBY', KEYS[1], 'avail', 0 - fresh) }
