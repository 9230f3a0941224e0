--[[
  One fan's view of a session's waiting room, read in one step.

  KEYS[1] state  KEYS[2] pre  KEYS[3] frozen  KEYS[4] line  KEYS[5] turns (userId -> turn start ms)
  ARGV[1] userId

  Returns { place or '', drawing, admittedThrough, soldOut, inPresalePool, inDraw, turnStart or '',
            epoch or '' (missing: Redis lost the queue; the caller rebuilds it and asks again) }
]]
-- @include "_queue.lua"

return queueView(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1])
