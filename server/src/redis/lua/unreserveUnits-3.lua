--[[
  Puts reserved units back on public sale (MySQL deleted their reserved claims first), or gives
  back what a reservation took when MySQL refused it. Only seats whose value is still the
  reserved 'S|0' are freed, so a retry frees nothing twice; zone slots are added back to the free
  set (ZADD of a member already there changes nothing, and avail counts only new ones).

  KEYS[1] meta   KEYS[2] seats   KEYS[3] zslots
  ARGV[1] kind  's' (seats) or the zone id
  ARGV[2..] seat ids, or slot numbers of the zone

  Returns
    { RC_RELEASED, availAfter, unitsFreed }
    { RC_NOT_READY }   inventory not loaded: the next rebuild reads MySQL, nothing to do here
]]
if redis.call('HEXISTS', KEYS[1], 'open') == 0 then return { RC_NOT_READY } end
local freed = 0
for i = 2, #ARGV do
  if ARGV[1] == 's' then
    if redis.call('HGET', KEYS[2], ARGV[i]) == 'S|0' then
      redis.call('HDEL', KEYS[2], ARGV[i])
      freed = freed + 1
    end
  else
    freed = freed + redis.call('ZADD', KEYS[3], ARGV[1], ARGV[1] .. ':' .. ARGV[i])
  end
end
return { RC_RELEASED, redis.call('HINCRBY', KEYS[1], 'avail', freed), freed }
