-- Shared helpers, included into the scripts at load time.
-- @include "_rates.lua"
-- An order's record in the session's orders hash:
--   state|userId|qty|kind|units|idemField|idHashes|over
--   state: H held, S sold, R released; kind: 's' (seats) or 'z<zoneId>'; units, idHashes: comma
--   lists (idHashes: the real-name attendees' ID documents, keyed hashes); over: the expired
--   holds this order took over, 'seatId:orderId:holdUntilMs' each (given back if it is released
--   while their order still holds: that seat was never counted in avail for this order)
-- A seat's value in the seats hash: 'H|orderId|holdUntilMs' or 'S|orderId'; absent = available.
local function split(s, sep)
  local out = {}
  local from = 1
  while true do
    local at = string.find(s, sep, from, true)
    if not at then
      out[#out + 1] = string.sub(s, from)
      return out
    end
    out[#out + 1] = string.sub(s, from, at - 1)
    from = at + 1
  end
end

local function parseRecord(rec)
  local f = split(rec, '|')
  local units, ids = {}, {}
  if f[5] ~= '' then units = split(f[5], ',') end
  if f[7] and f[7] ~= '' then ids = split(f[7], ',') end
  local over = {}
  if f[8] and f[8] ~= '' then over = split(f[8], ',') end
  return { state = f[1], user = f[2], qty = tonumber(f[3]), kind = f[4], units = units, idem = f[6] or '', ids = ids,
    over = over }
end

local function recordString(state, r)
  return state .. '|' .. r.user .. '|' .. r.qty .. '|' .. r.kind .. '|' .. table.concat(r.units, ',') .. '|' .. r.idem
    .. '|' .. table.concat(r.ids, ',') .. '|' .. table.concat(r.over or {}, ',')
end

-- The request part shared by the take scripts (see lockSeats-12.lua for the layout):
-- ARGV[1..7] order, user, times, limit, idempotency; ARGV[8] admission TTL ms (0: no token);
-- ARGV[9..14] request rates (points, window ms) per user, device, address (0 points: off);
-- ARGV[15] n, ARGV[16..15+n] ID hashes; the units follow. Returns the request and where units start.
local function readRequest()
  local n = tonumber(ARGV[15])
  local ids = {}
  for i = 16, 15 + n do ids[#ids + 1] = ARGV[i] end
  local rates = {}
  for i = 9, 14 do rates[#rates + 1] = tonumber(ARGV[i]) end
  return {
    orderId = ARGV[1], userId = ARGV[2], now = tonumber(ARGV[3]), holdUntil = ARGV[4], limit = tonumber(ARGV[5]),
    idem = ARGV[6], reqHash = ARGV[7], admissionTtl = tonumber(ARGV[8]), rates = rates, ids = ids,
  }, 16 + n
end

-- Request rates (_rates.lua) and the hold cooldown, in the purchase's own round trip.
local function throttle(K, q)
  local wait = countRates({ K.rateUser, K.rateDevice, K.rateIp }, q.rates)
  if wait > 0 then return { RC_RATE_LIMITED, wait } end
  local cooldown = redis.call('PTTL', K.cooldown)
  if cooldown > 0 then return { RC_HOLD_COOLDOWN, cooldown } end
  return nil
end

-- Checks of the take scripts before any unit is taken. Returns nil when the order may proceed.
-- K: meta, users, orders, idem, admission, ids, cooldown and rate keys. Rates are counted after
-- the NOT_READY answer, so the retry after a rebuild does not count the request twice.
local function gate(K, q, qty)
  local open = redis.call('HGET', K.meta, 'open')
  if not open then return { RC_NOT_READY } end
  local throttled = throttle(K, q)
  if throttled then return throttled end
  if q.idem ~= '' then
    local prev = redis.call('HGET', K.idem, q.idem)
    if prev then
      local bar = string.find(prev, '|', 1, true)
      if string.sub(prev, bar + 1) ~= q.reqHash then return { RC_IDEMPOTENCY_CONFLICT } end
      return { RC_REPLAY, string.sub(prev, 1, bar - 1) }
    end
  end
  if open ~= '1' then return { RC_NOT_ON_SALE } end
  if redis.call('HEXISTS', K.orders, q.orderId) == 1 then return { RC_REPLAY, q.orderId } end
  if q.admissionTtl > 0 and redis.call('EXISTS', K.admission) == 1 then return { RC_ADMISSION_USED } end
  local used = tonumber(redis.call('HGET', K.users, q.userId) or '0')
  if used + qty > q.limit then return { RC_LIMIT_EXCEEDED, used } end
  for _, id in ipairs(q.ids) do
    if redis.call('HEXISTS', K.ids, id) == 1 then return { RC_ID_TAKEN, id } end
  end
  return nil
end

-- Books the order once its units are taken: record, user count, expiry index, idempotency,
-- the admission token (used up) and the attendees' IDs.
local function book(K, q, r)
  redis.call('HINCRBY', K.users, r.user, r.qty)
  redis.call('HSET', K.orders, q.orderId, recordString('H', r))
  redis.call('ZADD', K.pending, q.holdUntil, q.orderId)
  if r.idem ~= '' then redis.call('HSET', K.idem, r.idem, q.orderId .. '|' .. q.reqHash) end
  if q.admissionTtl > 0 then redis.call('SET', K.admission, q.orderId, 'PX', q.admissionTtl) end
  for _, id in ipairs(r.ids) do redis.call('HSET', K.ids, id, q.orderId) end
end

-- The user whose order holds a seat ('' when unknown): refusals name it so the instance can
-- refuse that seat to others without asking again (orders/refusals.ts); never sent to clients.
local function seatHolder(ordersKey, v)
  local owner = ordersKey and string.match(v, '^[HS]|([^|]+)')
  if not owner then return '' end
  local rec = redis.call('HGET', ordersKey, owner)
  return rec and string.match(rec, '^[^|]*|([^|]*)') or ''
end

local function seatTaken(v, now)
  return v and (string.byte(v, 1) == 83 or tonumber(string.match(v, '(%d+)$')) > now)
end

-- The taken seats of a request after its first (index first): { seatId, holder, ... }. A refusal
-- names them all, so the instance refuses each to others without asking again (orders/refusals.ts):
-- in a flash sale the seats next to a taken one are mostly taken too.
local function alsoTaken(seats, current, first, now, ordersKey)
  local out = {}
  for j = first + 1, #seats do
    if seatTaken(current[j], now) then
      out[#out + 1] = seats[j]
      out[#out + 1] = seatHolder(ordersKey, current[j])
    end
  end
  return out
end

-- Checks that every seat is free (or its hold expired) and holds them all for orderId.
-- Returns nil, the number of seats that were free (not taken over) and the taken-over holds
-- ('seatId:orderId:holdUntilMs'), or the code, the first taken seat and its holder (with
-- ordersKey), and the request's other taken seats (alsoTaken).
local function holdSeats(metaKey, seatsKey, seats, orderId, now, holdUntil, ordersKey)
  local current = redis.call('HMGET', seatsKey, unpack(seats))
  local fresh = 0
  local over = {}
  for i, v in ipairs(current) do
    if v then
      if seatTaken(v, now) then
        local avail = tonumber(redis.call('HGET', metaKey, 'avail') or '0')
        local code = avail <= 0 and RC_SOLD_OUT or RC_SEAT_TAKEN
        return code, seats[i], seatHolder(ordersKey, v), alsoTaken(seats, current, i, now, ordersKey)
      end
      local prev, prevUntil = string.match(v, '^H|([^|]+)|(%d+)$')
      if prev then over[#over + 1] = seats[i] .. ':' .. prev .. ':' .. prevUntil end
    else
      fresh = fresh + 1
    end
  end
  local holdValue = 'H|' .. orderId .. '|' .. holdUntil
  for _, seat in ipairs(seats) do redis.call('HSET', seatsKey, seat, holdValue) end
  return nil, fresh, over
end

-- Frees a seat an order held. A seat it took over from an expired hold goes back to that hold
-- while its order still holds in Redis (the record may still be in MySQL, which refused this
-- order for it): avail never counted it for this order, so it is not added back either.
-- Returns 1 when the seat became free (count it in avail), 0 when it went back.
local function freeSeat(seatsKey, ordersKey, seat, overBySeat)
  local prev = overBySeat[seat]
  if prev then
    local prevOrder, prevUntil = string.match(prev, '^([^:]+):(%d+)$')
    local prevRec = redis.call('HGET', ordersKey, prevOrder)
    if prevRec and string.byte(prevRec, 1) == 72 then -- 'H': that order still holds
      redis.call('HSET', seatsKey, seat, 'H|' .. prevOrder .. '|' .. prevUntil)
      return 0
    end
  end
  redis.call('HDEL', seatsKey, seat)
  return 1
end

-- { seatId = 'orderId:holdUntilMs' } of a record's taken-over holds.
local function overBySeat(r)
  local out = {}
  for _, o in ipairs(r.over) do
    local at = string.find(o, ':', 1, true)
    out[string.sub(o, 1, at - 1)] = string.sub(o, at + 1)
  end
  return out
end

-- Takes qty free units of a zone (check and take in one step). Returns the slot numbers, or nil
-- and the units left when there are not enough (fewer than qty found is all there is: no ZCOUNT).
local function takeSlots(zslotsKey, zoneId, qty)
  local members = redis.call('ZRANGEBYSCORE', zslotsKey, zoneId, zoneId, 'LIMIT', 0, qty)
  if #members < qty then return nil, #members end
  redis.call('ZREM', zslotsKey, unpack(members))
  local slots = {}
  for i, m in ipairs(members) do slots[i] = string.sub(m, #zoneId + 2) end
  return slots
end
