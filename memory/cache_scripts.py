"""The Lua scripts of the Redis read cache (`memory.cache`): one round trip each, atomic.

KEYS are always the namespace's entry and its generation counter (one slot).
"""

# ARGV: the largest facts value to answer inline, then the summary fields to try, in
# order. Answers {'summary', value}, else {'facts', generation[, packed facts]} when the
# facts are cached, else {'miss', generation}. Larger facts values are read with a
# plain HGET after it: a script copies its reply through Lua (0.7 ms for 500 facts),
# while a second round trip costs less than that.
LOOKUP = """
for i = 2, #ARGV do
  local value = redis.call('HGET', KEYS[1], ARGV[i])
  if value then return {'summary', value} end
end
local gen = redis.call('GET', KEYS[2])
if gen == false then gen = '0' end
local size = redis.call('HSTRLEN', KEYS[1], 'facts')
if size == 0 then return {'miss', gen} end
if size <= tonumber(ARGV[1]) then return {'facts', gen, redis.call('HGET', KEYS[1], 'facts')} end
return {'facts', gen}
"""
# ARGV: generation seen, TTL, the most fields an entry may hold, the summary format's
# version (`memory.summary.FORMAT_VERSION`), then field/value pairs. A new request's
# summary (`q:`) past that many is not added (facts always are): a summary is sized for a
# prompt (a few KB), and a warmed traveller asks many. A full entry first drops the
# summaries of any other format (`q:<digest>`, `q:1:…`, `*:en`: written before a deploy),
# which no lookup of this version asks for, so they never crowd out this version's.
FILL = """
local gen = redis.call('GET', KEYS[2])
if gen == false then gen = '0' end
if gen ~= ARGV[1] then return 0 end
local most = tonumber(ARGV[3])
local ours = {'q:' .. ARGV[4] .. ':', '*:' .. ARGV[4] .. ':'}
local swept = false
for i = 5, #ARGV, 2 do
  local summary = string.sub(ARGV[i], 1, 2) == 'q:'
  if summary and not swept and redis.call('HLEN', KEYS[1]) >= most then
    swept = true
    for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
      local head = string.sub(name, 1, 2)
      if (head == 'q:' or head == '*:') and string.sub(name, 1, #ours[1]) ~= ours[1]
         and string.sub(name, 1, #ours[2]) ~= ours[2] then
        redis.call('HDEL', KEYS[1], name)
      end
    end
  end
  if not summary or redis.call('HLEN', KEYS[1]) < most
     or redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1
"""
# The most fields one namespace's entry holds: its facts and the summaries of its last
# distinct requests (each up to `MEMORY_SUMMARY_MAX_CHARS`).
MAX_FIELDS = 33

INVALIDATE = """
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])
"""
