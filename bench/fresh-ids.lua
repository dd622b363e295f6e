-- A fresh id on every request, so that each one is a real miss: wrk -s fresh-ids.lua <URL ending in /> -- <base>.
-- Each run gets its own base and each wrk thread its own range above it, so no id repeats within a run or
-- across the runs of one benchmark (which share memcached).
local threads = 0

function setup(thread)
    thread:set("thread_index", threads)
    threads = threads + 1
end

function init(args)
    local base = tonumber(args[1]) or 0
    -- 10^9 ids per thread: far more than a thread sends in a run. The sums stay below 2^53, exact in Lua's numbers.
    next_id = base + thread_index * 1000000000
    prefix = wrk.path
end

function request()
    next_id = next_id + 1
    return wrk.format(nil, prefix .. string.format("%d", next_id))
end
