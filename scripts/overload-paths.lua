-- Cycles over the preloaded paths /api/v1/comments/1 to /api/v1/comments/<count>: wrk -s overload-paths.lua <URL>
-- -- <count>. Each wrk thread starts at a different path, so that the threads do not ask for the same item together.
local threads = 0

function setup(thread)
    thread:set("thread_index", threads)
    threads = threads + 1
end

function init(args)
    count = tonumber(args[1]) or 300
    next_id = (thread_index * 97) % count
end

function request()
    next_id = next_id % count + 1
    return wrk.format(nil, "/api/v1/comments/" .. next_id)
end
