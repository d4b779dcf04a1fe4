// Lua scripts the Redis store runs, each one atomic on the server. A task is one hash: `status`,
// `statusMessage`, `lastUpdatedAt`, `runner`, `base` (the fixed fields, JSON), `result` and `error`
// (JSON), `in:<key>` per outstanding input request and `ans:<key>` per answer not yet taken.

const TERMINAL = "st == 'completed' or st == 'failed' or st == 'cancelled'";

const CLEAR_INPUTS = `
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(f, 1, 3) == 'in:' then redis.call('HDEL', KEYS[1], f) end
end`;

/** KEYS[1] task; ARGV: lease key prefix, failure message, failure error JSON, now. A task whose runner's lease is gone fails. */
export const GET = `
local st = redis.call('HGET', KEYS[1], 'status')
if not st then return nil end
if st == 'working' or st == 'input_required' then
  local runner = redis.call('HGET', KEYS[1], 'runner')
  if redis.call('EXISTS', ARGV[1] .. runner) == 0 then
    ${CLEAR_INPUTS}
    redis.call('HSET', KEYS[1], 'status', 'failed', 'statusMessage', ARGV[2], 'error', ARGV[3], 'lastUpdatedAt', ARGV[4])
  end
end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS[1] task; ARGV: now, "1" to drop every outstanding input request, then field/value pairs. */
export const UPDATE = `
local st = redis.call('HGET', KEYS[1], 'status')
if not st or ${TERMINAL} then return nil end
if ARGV[2] == '1' then ${CLEAR_INPUTS} end
redis.call('HSET', KEYS[1], 'lastUpdatedAt', ARGV[1])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return redis.call('HGETALL', KEYS[1])`;

/** KEYS[1] task; ARGV: now, then key/response pairs. Returns the keys taken. */
export const ANSWER = `
local st = redis.call('HGET', KEYS[1], 'status')
if not st or ${TERMINAL} then return {} end
local taken = {}
for i = 2, #ARGV, 2 do
  if redis.call('HDEL', KEYS[1], 'in:' .. ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], 'ans:' .. ARGV[i], ARGV[i + 1])
    table.insert(taken, ARGV[i])
  end
end
if #taken > 0 then
  local left = false
  for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(f, 1, 3) == 'in:' then left = true break end
  end
  if not left and st == 'input_required' then redis.call('HSET', KEYS[1], 'status', 'working') end
  redis.call('HSET', KEYS[1], 'lastUpdatedAt', ARGV[1])
end
return taken`;

/** KEYS[1] task. Removes and returns the answers as field/value pairs. */
export const TAKE = `
local out = {}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 4) == 'ans:' then
    redis.call('HDEL', KEYS[1], all[i])
    table.insert(out, string.sub(all[i], 5))
    table.insert(out, all[i + 1])
  end
end
return out`;

/**
 * KEYS[1] task, KEYS[2] the owner's tasks, KEYS[3] every task (sorted sets scored by expiry); ARGV: now
 * (epoch ms), the task's expiry (epoch ms), the per-principal cap, the total cap (0: none), the task id,
 * then field/value pairs. Returns 'principal' or 'total' for a cap passed (nothing written), else 'ok'.
 */
export const CREATE = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
if tonumber(ARGV[3]) > 0 and redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 'principal' end
if tonumber(ARGV[4]) > 0 and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 'total' end
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[5])
redis.call('PEXPIREAT', KEYS[2], ARGV[2])
redis.call('PEXPIREAT', KEYS[3], ARGV[2])
return 'ok'`;
