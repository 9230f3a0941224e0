--[[
  The job leader's lease: one instance at a time runs the singleton jobs (expiry, lifecycle,
  sweeps, reconciliation). The leader renews it well before it expires; if the leader dies, the
  lease runs out and the next instance to ask takes it.

  KEYS[1] lease
  ARGV[1] owner (unique per process)
  ARGV[2] leaseMs
  ARGV[3] action: 'hold'    take the lease if free, renew it if ours
          'release' give it up if ours (a clean shutdown hands over at once)

  Returns
    { RC_LEADING }                 we hold it for leaseMs from now
    { RC_NOT_LEADING, owner }      someone else holds it ('' after a release)
]]
local current = redis.call('GET', KEYS[1])
if ARGV[3] == 'release' then
  if current == ARGV[1] then redis.call('DEL', KEYS[1]) end
  return { RC_NOT_LEADING, '' }
end
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return { RC_LEADING }
end
return { RC_NOT_LEADING, current }
