--[[
  A fan joins a session's waiting room: one place per user (and per ID document on real-name
  sessions), however many devices or tabs join. Before the sale opens, joiners wait in a pool
  whose order is drawn at random when it opens; later arrivals get the next place in line.

  KEYS[1] state   hash: epoch (set by the rebuild from MySQL; missing: Redis lost the queue),
                  open ('1' once the sale opened), seq (places given), admitted, ...
  KEYS[2] pre     zset userId -> join time (joined before the sale opened)
  KEYS[3] frozen  zset: the pre-sale pool while its order is being drawn
  KEYS[4] line    zset userId -> place (1-based)
  KEYS[5] ids     hash idHash -> userId (real-name: the ID a place is for)
  KEYS[6] turns   hash userId -> turn start ms
  KEYS[7] rateUser    join-rate counters of the user, the device and the address in this
  KEYS[8] rateDevice  session (strings with TTL; a dummy key when the dimension is off)
  KEYS[9] rateIp
  ARGV[1] userId  ARGV[2] nowMs  ARGV[3] idHash or ''
  ARGV[4] rateUserPoints  ARGV[5] rateUserWindowMs  ARGV[6] rateDevicePoints
  ARGV[7] rateDeviceWindowMs  ARGV[8] rateIpPoints  ARGV[9] rateIpWindowMs (0 points: not counted)

  Returns
    { RC_QUEUED, view }      joined (now or before); view as queueStatus answers it (with the
                             epoch the place belongs to: the join is recorded under it)
    { RC_ID_TAKEN }          this ID holds a place for another account
    { RC_RATE_LIMITED, waitMs }  a join rate is used up (counted on every join that finds the
                             queue, a repeated one too: nothing else is done)
    { RC_NOT_READY }         no state hash: the queue must be rebuilt from MySQL first
]]
-- @include "_queue.lua"
-- @include "_rates.lua"
local userId, now, idHash = ARGV[1], ARGV[2], ARGV[3]
if not redis.call('HGET', KEYS[1], 'epoch') then return { RC_NOT_READY } end
-- After NOT_READY: the join run again once the queue is rebuilt is not counted twice.
local rates = {}
for i = 4, 9 do rates[#rates + 1] = tonumber(ARGV[i]) end
local wait = countRates({ KEYS[7], KEYS[8], KEYS[9] }, rates)
if wait > 0 then return { RC_RATE_LIMITED, wait } end
local function view() return { RC_QUEUED, queueView(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[6], userId) } end
if idHash ~= '' then
  local owner = redis.call('HGET', KEYS[5], idHash)
  if owner and owner ~= userId then return { RC_ID_TAKEN } end
end
if redis.call('ZSCORE', KEYS[4], userId) or redis.call('ZSCORE', KEYS[2], userId) or redis.call('ZSCORE', KEYS[3], userId) then
  return view()
end
if idHash ~= '' then redis.call('HSET', KEYS[5], idHash, userId) end
if redis.call('HGET', KEYS[1], 'open') ~= '1' then
  redis.call('ZADD', KEYS[2], now, userId)
else
  redis.call('ZADD', KEYS[4], redis.call('HINCRBY', KEYS[1], 'seq', 1), userId)
end
return view()
