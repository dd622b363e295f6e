-- Keys asked as traffic asks them: Zipf-distributed popularity, the key of rank r asked with probability
-- proportional to r^-s, each key an item of a size of its own.
--   wrk -s zipf.lua <URL of the server> -- <keys> <s> <seed> <size seed> <median bytes> <sigma>
-- The key of rank r is /items/<r>-<c>, where c is the rank's size class: one of 200 sizes spaced evenly in log size
-- from 100 B to 50,000 B, which bench/zipf.sh's origin serves (it reads c from the path, so every key is a URL and
-- a memcached key of its own with a known size). The classes are drawn once per rank, independently of its
-- popularity, from a lognormal distribution of sizes (median and sigma, in ln bytes) clipped to that range: object
-- sizes on the web and in caches have a lognormal body, a few large ones among many small. report.py draws the very
-- same classes (zipf_classes) to give the size mix; to be sure of that, this script prints a checksum of its own.
--
-- A run with the same seed and thread count asks the same keys in the same order per thread: each thread seeds its
-- own generator from the seed and its index. At the end it prints "zipf<TAB>name<TAB>value" lines: the requests,
-- those to the hottest key, the distinct keys asked and the checksum of the classes, then a
-- "zipf<TAB>class<TAB>c<TAB>requests" line for each class that was asked.
local threads = {}

-- The size classes, as report.py has them.
local CLASSES = 200
local SMALLEST = 100
local LARGEST = 50000
-- Park and Miller's minimal standard generator: every step is exact in a double (16807 * (2^31 - 1) < 2^53), so
-- that LuaJIT's numbers and Python's integers go through the same states, which math.random could not promise.
local MODULUS = 2147483647

function setup(thread)
    thread:set("thread_index", #threads)
    table.insert(threads, thread)
end

-- classes[rank]: each rank's size class. A normal deviate is the sum of twelve uniform draws less six (Irwin and
-- Hall), arithmetic alone, so that no library function of one language can round differently from the other's; its
-- tails end at six standard deviations, far beyond the clipped range.
local function draw_classes(count, seed, median, sigma)
    local span = math.log(LARGEST / SMALLEST)
    local centre = math.log(median / SMALLEST) / span * (CLASSES - 1)
    local spread = sigma / span * (CLASSES - 1)
    local state = seed
    local drawn = {}
    for rank = 1, count do
        local sum = 0
        for _ = 1, 12 do
            state = state * 16807 % MODULUS
            sum = sum + state / MODULUS
        end
        local class = math.floor(centre + spread * (sum - 6) + 0.5)
        drawn[rank] = math.max(0, math.min(CLASSES - 1, class))
    end
    return drawn
end

function init(args)
    keys = tonumber(args[1]) or 100000
    local s = tonumber(args[2]) or 1.0
    local seed = tonumber(args[3]) or 1
    local size_seed = tonumber(args[4]) or 1
    local median = tonumber(args[5]) or 2000
    local sigma = tonumber(args[6]) or 1.2
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
    classes = draw_classes(keys, size_seed, median, sigma)
    -- Weighted by the rank, so that two ranks that swapped their classes change it too; below 2^53 for any
    -- number of keys wrk could ask.
    checksum = 0
    for rank = 1, keys do
        checksum = checksum + classes[rank] * (rank % 1000 + 1)
    end
    math.randomseed(seed * 1000 + thread_index)
    requests, hottest = 0, 0
    asked, by_class = {}, {}
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
    local class = classes[rank]
    requests = requests + 1
    if rank == 1 then hottest = hottest + 1 end
    asked[rank] = true
    by_class[class] = (by_class[class] or 0) + 1
    return wrk.format(nil, "/items/" .. rank .. "-" .. class)
end

function done()
    local totals = { requests = 0, hottest = 0 }
    local union, union_count, per_class = {}, 0, {}
    local checksum_seen
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
        for class, count in pairs(thread:get("by_class")) do
            per_class[class] = (per_class[class] or 0) + count
        end
        -- Every thread drew the same classes; the first thread's checksum stands for them all.
        checksum_seen = checksum_seen or thread:get("checksum")
    end
    for _, name in ipairs({ "requests", "hottest" }) do
        io.write(string.format("zipf\t%s\t%d\n", name, totals[name]))
    end
    io.write(string.format("zipf\tdistinct\t%d\n", union_count))
    io.write(string.format("zipf\tchecksum\t%d\n", checksum_seen or 0))
    for class = 0, CLASSES - 1 do
        if per_class[class] then
            io.write(string.format("zipf\tclass\t%d\t%d\n", class, per_class[class]))
        end
    end
end
