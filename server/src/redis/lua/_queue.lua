-- Shared by the waiting-room scripts: one fan's view of the queue, in one reply.
-- KEYS: state, pre, frozen, line, (ids,) turns — the caller passes the key names.
local function queueView(stateKey, preKey, frozenKey, lineKey, turnsKey, userId)
  local s = redis.call('HMGET', stateKey, 'open', 'drawing', 'admitted', 'soldOut')
  return {
    redis.call('ZSCORE', lineKey, userId) or '',
    s[2] or '0',
    s[3] or '0',
    s[4] or '0',
    redis.call('ZSCORE', preKey, userId) and '1' or '0',
    redis.call('ZSCORE', frozenKey, userId) and '1' or '0',
    redis.call('HGET', turnsKey, userId) or '',
  }
end
