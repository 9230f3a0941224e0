--[[
  Holds 1..N seats for a new order, all or nothing, counts them against the user's limit, uses
  up the buyer's admission token (waiting room) and claims the attendees' IDs (real-name). The
  request rates and the hold cooldown are checked here too: a purchase is one Redis round trip.

  KEYS[1] meta       session hash: open ('1' selling, '0' not), avail (units left)
  KEYS[2] seats      hash seatId -> 'H|orderId|holdUntilMs' or 'S|orderId'
  KEYS[3] users      hash userId -> units in live orders
  KEYS[4] orders     hash orderId -> record (see _record.lua)
  KEYS[5] pending    zset orderId scored by holdUntilMs
  KEYS[6] idem       hash 'userId:key' -> 'orderId|requestHash'
  KEYS[7] admission  the admission token's key (string with TTL once used; a dummy when none)
  KEYS[8] ids        hash idHash -> orderId (live real-name attendees)
  KEYS[9] cooldown   the user's hold cooldown in this session (string with TTL; risk/service.ts)
  KEYS[10] rateUser   request-rate counters of the user, the device and the address in this
  KEYS[11] rateDevice session (strings with TTL; a dummy key when the dimension is off)
  KEYS[12] rateIp

  ARGV[1] orderId  ARGV[2] userId  ARGV[3] nowMs  ARGV[4] holdUntilMs  ARGV[5] purchase limit
  ARGV[6] idempotency field or ''  ARGV[7] request hash  ARGV[8] admission token TTL ms (0: none)
  ARGV[9] rateUserPoints  ARGV[10] rateUserWindowMs  ARGV[11] rateDevicePoints
  ARGV[12] rateDeviceWindowMs  ARGV[13] rateIpPoints  ARGV[14] rateIpWindowMs (0 points: not counted)
  ARGV[15] n  ARGV[16..15+n] attendee ID hashes  ARGV[16+n..] seat ids

  Returns
    { RC_LOCKED, availAfter }        held
    { RC_RATE_LIMITED, waitMs }      a request rate is used up (counted before everything below
                                     but NOT_READY)
    { RC_HOLD_COOLDOWN, waitMs }     the user let too many holds expire (risk/service.ts)
    { RC_REPLAY, orderId }           same idempotency key and request, or this order is already booked
    { RC_NOT_READY }                 inventory not loaded (Redis lost it): rebuild from MySQL
    { RC_NOT_ON_SALE }
    { RC_IDEMPOTENCY_CONFLICT }      same key, different request
    { RC_ADMISSION_USED }            this admission token bought already
    { RC_LIMIT_EXCEEDED, used }
    { RC_ID_TAKEN, idHash }          an attendee's ID holds a ticket of this session already
    { RC_SEAT_TAKEN, seatId, holder, ... } a seat is sold or held by an unexpired hold (holder:
                                     the userId of its order, '' if unknown; for the instance
                                     only), then every other taken seat of the request the same
                                     way (seatId, holder pairs)
    { RC_SOLD_OUT, seatId, holder, ... } the same, and nothing is left in the session
  A hold past its holdUntilMs counts as free: its seat may be taken over.
]]
-- @include "_record.lua"

local K = { meta = KEYS[1], users = KEYS[3], orders = KEYS[4], pending = KEYS[5], idem = KEYS[6], admission = KEYS[7], ids = KEYS[8],
  cooldown = KEYS[9], rateUser = KEYS[10], rateDevice = KEYS[11], rateIp = KEYS[12] }
local q, first = readRequest()
local seats = {}
for i = first, #ARGV do seats[#seats + 1] = ARGV[i] end

local refused = gate(K, q, #seats)
if refused then return refused end

local code, fresh, over, also = holdSeats(KEYS[1], KEYS[2], seats, q.orderId, q.now, q.holdUntil, K.orders)
if code then return { code, fresh, over, unpack(also) } end
book(K, q, { user = q.userId, qty = #seats, kind = 's', units = seats, idem = q.idem, ids = q.ids, over = over })
-- 0 - n, not -n: Lua 5.1 turns -0 into the string '-0', which HINCRBY refuses.
return { RC_LOCKED, redis.call('HINCRBY', KEYS[1], 'avail', 0 - fresh) }
