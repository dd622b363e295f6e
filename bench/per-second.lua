-- Answers counted second by second, and at the end one line per second of the run, "<second>\t<answers>", the
-- first second being the one in which the run started. With a base, real misses (fresh-ids.lua's requests); with
-- none, the URL itself on every request (a hit, or the pass-through).
--   wrk -s per-second.lua <URL ending in /> -- <base>
--   wrk -s per-second.lua <URL>
local directory = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(directory .. "fresh-ids.lua")
local fresh_init, fresh_request = init, request

function init(args)
    fresh_init(args)
    fixed = args[1] == nil
    if fixed then
        fixed_request = wrk.format()
    end
end

function request()
    if fixed then
        return fixed_request
    end
    return fresh_request()
end

local ffi = require("ffi")
ffi.cdef [[
    typedef struct { long tv_sec; long tv_nsec; } per_second_timespec;
    int clock_gettime(int clock, per_second_timespec *now);
]]
local CLOCK_MONOTONIC = 1
local timespec = ffi.new("per_second_timespec")

local function now()
    ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
    return tonumber(timespec.tv_sec) + tonumber(timespec.tv_nsec) / 1e9
end

-- The threads, for done() to collect their counts.
local threads = {}
local fresh_setup = setup

function setup(thread)
    fresh_setup(thread)
    table.insert(threads, thread)
    -- One start for all threads, so that their seconds line up.
    thread:set("started", now())
end

-- Per thread: answers in each second since the start, 1-based.
answers = {}

function response()
    local second = math.floor(now() - started) + 1
    answers[second] = (answers[second] or 0) + 1
end

function done()
    local total, last = {}, 0
    for _, thread in ipairs(threads) do
        for second, count in pairs(thread:get("answers")) do
            total[second] = (total[second] or 0) + count
            if second > last then last = second end
        end
    end
    for second = 1, last do
        io.write(string.format("%d\t%d\n", second, total[second] or 0))
    end
end
