-- Request-rate counters inside a script's own round trip (the take scripts, queueJoin). The
-- counters live under the session's hash tag, so the script stays in one Cluster slot; the
-- per-user count across sessions is kept per instance in memory (risk/service.ts). Fixed
-- windows, counted as rate-limiter-flexible counts them: the first request starts the window,
-- every request counts. keys[i] is counted with rates[2i-1] points per rates[2i] ms (0 points:
-- not counted, its key untouched). Returns the longest wait in ms of the counters used up (0: none).
local function countRates(keys, rates)
  local wait = 0
  for i = 1, #keys do
    local points, windowMs = rates[2 * i - 1], rates[2 * i]
    if points > 0 then
      local n = redis.call('INCR', keys[i])
      local ttl = redis.call('PTTL', keys[i])
      if n == 1 or ttl < 0 then
        redis.call('PEXPIRE', keys[i], windowMs)
        ttl = windowMs
      end
      if n > points and ttl > wait then wait = ttl end
    end
  end
  return wait
end
