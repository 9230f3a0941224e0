-- Shared by the waiting-room scripts: one fan's view of the queue, in one reply. The last
-- element is the queue's epoch ('' when the state hash is missing: Redis lost the queue, and it
-- is rebuilt from MySQL before anyone is answered).
-- KEYS: state, pre, frozen, line, (ids,) turns — the caller passes the key names.
local function queueView(stateKey, preKey, frozenKey, lineKey, turnsKey, userId)
  local s = redis.call('HMGET', stateKey, 'open', 'drawing', 'admitted', 'soldOut', 'epoch')
  return {
    redis.call('ZSCORE', lineKey, userId) or '',
    s[2] or '0',
    s[3] or '0',
    s[4] or '0',
    redis.call('ZSCORE', preKey, userId) and '1' or '0',
    redis.call('ZSCORE', frozenKey, userId) and '1' or '0',
    redis.call('HGET', turnsKey, userId) or '',
    s[5] or '',
  }
end
