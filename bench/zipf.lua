-- Keys asked as traffic asks them: Zipf-distributed popularity, the key of rank r asked with probability
-- proportional to r^-s.
--   wrk -s zipf.lua <URL of the server> -- <keys> <s> <seed>
-- The key of rank r is a single comment for odd r (/api/v1/comments/r) and a user's comments for even r
-- (/api/v1/comments/users/r), so that both answer sizes come at every level of popularity. A run with the same seed
-- and thread count asks the same keys in the same order per thread: each thread seeds its own generator from the
-- seed and its index. At the end it prints "zipf<TAB>name<TAB>value" lines: the requests per kind of answer, those
-- to the hottest key, and the distinct keys asked.
local threads = {}

function setup(thread)
    thread:set("thread_index", #threads)
    table.insert(threads, thread)
end

function init(args)
    keys = tonumber(args[1]) or 100000
    local s = tonumber(args[2]) or 1.0
    local seed = tonumber(args[3]) or 1
    -- The cumulative distribution, once per thread (each has its own Lua state): 100,000 powers take milliseconds,
    -- and a request then costs a binary search of 17 steps.
    cdf = {}
    local sum = 0
    for rank = 1, keys do
        sum = sum + rank ^ -s
        cdf[rank] = sum
    end
    for rank = 1, keys do
        cdf[rank] = cdf[rank] / sum
    end
    -- Rounding could leave the last entry a hair below 1, and a draw above it without a rank.
    cdf[keys] = 1
    math.randomseed(seed * 1000 + thread_index)
    singles, collections, hottest = 0, 0, 0
    asked = {}
end

-- The smallest rank whose cumulative probability reaches u.
local function rank_of(u)
    local low, high = 1, keys
    while low < high do
        local middle = math.floor((low + high) / 2)
        if cdf[middle] < u then
            low = middle + 1
        else
            high = middle
        end
    end
    return low
end

function request()
    local rank = rank_of(math.random())
    if rank == 1 then hottest = hottest + 1 end
    asked[rank] = true
    if rank % 2 == 1 then
        singles = singles + 1
        return wrk.format(nil, "/api/v1/comments/" .. rank)
    end
    collections = collections + 1
    return wrk.format(nil, "/api/v1/comments/users/" .. rank)
end

function done()
    local totals = { singles = 0, collections = 0, hottest = 0 }
    local union, union_count = {}, 0
    for _, thread in ipairs(threads) do
        for name, _ in pairs(totals) do
            totals[name] = totals[name] + thread:get(name)
        end
        -- Threads share hot keys: the distinct keys of the run are the union of theirs.
        for rank, _ in pairs(thread:get("asked")) do
            if not union[rank] then
                union[rank] = true
                union_count = union_count + 1
            end
        end
    end
    for _, name in ipairs({ "singles", "collections", "hottest" }) do
        io.write(string.format("zipf\t%s\t%d\n", name, totals[name]))
    end
    io.write(string.format("zipf\tdistinct\t%d\n", union_count))
end
