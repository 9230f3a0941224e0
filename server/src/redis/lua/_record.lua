-- Shared helpers, included into the scripts at load time.
-- An order's record in the session's orders hash:
--   state|userId|qty|kind|units|idemField|idHashes
--   state: H held, S sold, R released; kind: 's' (seats) or 'z<zoneId>'; units, idHashes: comma
--   lists (idHashes: the real-name attendees' ID documents, keyed hashes)
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
  return { state = f[1], user = f[2], qty = tonumber(f[3]), kind = f[4], units = units, idem = f[6] or '', ids = ids }
end

local function recordString(state, r)
  return state .. '|' .. r.user .. '|' .. r.qty .. '|' .. r.kind .. '|' .. table.concat(r.units, ',') .. '|' .. r.idem
    .. '|' .. table.concat(r.ids, ',')
end

-- The request part shared by the take scripts (see lockSeats-8.lua for the layout):
-- ARGV[1..7] order, user, times, limit, idempotency; ARGV[8] admission TTL ms (0: no token);
-- ARGV[9] n, ARGV[10..9+n] ID hashes; the units follow. Returns the request and where units start.
local function readRequest()
  local n = tonumber(ARGV[9])
  local ids = {}
  for i = 10, 9 + n do ids[#ids + 1] = ARGV[i] end
  return {
    orderId = ARGV[1], userId = ARGV[2], now = tonumber(ARGV[3]), holdUntil = ARGV[4], limit = tonumber(ARGV[5]),
    idem = ARGV[6], reqHash = ARGV[7], admissionTtl = tonumber(ARGV[8]), ids = ids,
  }, 10 + n
end

-- Checks of the take scripts before any unit is taken. Returns nil when the order may proceed.
-- K: meta, users, orders, idem, admission, ids keys.
local function gate(K, q, qty)
  local open = redis.call('HGET', K.meta, 'open')
  if not open then return { RC_NOT_READY } end
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

-- Checks that every seat is free (or its hold expired) and holds them all for orderId.
-- Returns nil and the number of seats that were free (not taken over), or the code and seat.
local function holdSeats(metaKey, seatsKey, seats, orderId, now, holdUntil)
  local current = redis.call('HMGET', seatsKey, unpack(seats))
  local fresh = 0
  for i, v in ipairs(current) do
    if v then
      local taken = string.byte(v, 1) == 83 or tonumber(string.match(v, '(%d+)$')) > now
      if taken then
        local avail = tonumber(redis.call('HGET', metaKey, 'avail') or '0')
        if avail <= 0 then return RC_SOLD_OUT, seats[i] end
        return RC_SEAT_TAKEN, seats[i]
      end
    else
      fresh = fresh + 1
    end
  end
  local holdValue = 'H|' .. orderId .. '|' .. holdUntil
  for _, seat in ipairs(seats) do redis.call('HSET', seatsKey, seat, holdValue) end
  return nil, fresh
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
