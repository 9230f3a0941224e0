-- Shared helpers, included into the scripts at load time.
-- An order's record in the session's orders hash:
--   state|userId|qty|kind|units|idemField
--   state: H held, S sold, R released; kind: 's' (seats) or 'z<zoneId>'; units: comma list
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
  local units = {}
  if f[5] ~= '' then units = split(f[5], ',') end
  return { state = f[1], user = f[2], qty = tonumber(f[3]), kind = f[4], units = units, idem = f[6] or '' }
end

local function recordString(state, r)
  return state .. '|' .. r.user .. '|' .. r.qty .. '|' .. r.kind .. '|' .. table.concat(r.units, ',') .. '|' .. r.idem
end

-- Common admission checks of the two take scripts. Returns nil when the order may proceed.
local function gate(metaKey, usersKey, ordersKey, idemKey, orderId, userId, limit, idemField, reqHash, qty)
  local open = redis.call('HGET', metaKey, 'open')
  if not open then return { RC_NOT_READY } end
  if idemField ~= '' then
    local prev = redis.call('HGET', idemKey, idemField)
    if prev then
      local bar = string.find(prev, '|', 1, true)
      if string.sub(prev, bar + 1) ~= reqHash then return { RC_IDEMPOTENCY_CONFLICT } end
      return { RC_REPLAY, string.sub(prev, 1, bar - 1) }
    end
  end
  if open ~= '1' then return { RC_NOT_ON_SALE } end
  if redis.call('HEXISTS', ordersKey, orderId) == 1 then return { RC_REPLAY, orderId } end
  local used = tonumber(redis.call('HGET', usersKey, userId) or '0')
  if used + qty > tonumber(limit) then return { RC_LIMIT_EXCEEDED, used } end
  return nil
end

-- Books the order once its units are taken: record, user count, expiry index, idempotency.
local function book(usersKey, ordersKey, pendingKey, idemKey, orderId, holdUntil, reqHash, r)
  redis.call('HINCRBY', usersKey, r.user, r.qty)
  redis.call('HSET', ordersKey, orderId, recordString('H', r))
  redis.call('ZADD', pendingKey, holdUntil, orderId)
  if r.idem ~= '' then redis.call('HSET', idemKey, r.idem, orderId .. '|' .. reqHash) end
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
-- and the units left when there are not enough.
local function takeSlots(zslotsKey, zoneId, qty)
  local left = redis.call('ZCOUNT', zslotsKey, zoneId, zoneId)
  if left < qty then return nil, left end
  local members = redis.call('ZRANGEBYSCORE', zslotsKey, zoneId, zoneId, 'LIMIT', 0, qty)
  redis.call('ZREM', zslotsKey, unpack(members))
  local slots = {}
  for i, m in ipairs(members) do slots[i] = string.sub(m, #zoneId + 2) end
  return slots
end
