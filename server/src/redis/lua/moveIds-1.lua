--[[
  Moves the real-name ID claims of an order to another order of the session, or gives them up
  (its tickets were exchanged: to the same session, or away from it). An ID moves only while
  this session still gives it to the old order, so a claim someone else holds is never touched;
  asked again, nothing is left to move.

  KEYS[1] ids
  ARGV[1] fromOrderId
  ARGV[2] toOrderId     '' to give the IDs up
  ARGV[3..] the ID hashes

  Returns
    { RC_RELEASED, moved }
]]
local from, to = ARGV[1], ARGV[2]
local moved = 0
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == from then
    if to == '' then
      redis.call('HDEL', KEYS[1], ARGV[i])
    else
      redis.call('HSET', KEYS[1], ARGV[i], to)
    end
    moved = moved + 1
  end
end
return { RC_RELEASED, moved }
