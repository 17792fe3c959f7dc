-- wrk script for bench/run.py and bench/load: cycles through the requests in the file named by env
-- WRK_REQS (one per line: METHOD<TAB>PATH[<TAB>JSON_BODY]) and, when the run ends and env WRK_OUT
-- names a file, writes its figures there as one JSON object (latencies in microseconds).
-- No response() callback: wrk then skips parsing bodies and counts statuses > 399 itself.
-- Requests are formatted in init(), after wrk.init has set the Host header (a proxy such as nginx
-- refuses HTTP/1.1 requests without one).
local lines = {}
local f = assert(io.open(os.getenv("WRK_REQS"), "r"))
for line in f:lines() do
  local m, p, b = line:match("^(%S+)\t([^\t]+)\t?(.*)$")
  if m then
    if b == "" then b = nil end
    lines[#lines + 1] = {m, p, b}
  end
end
f:close()
assert(#lines > 0, "no requests in " .. os.getenv("WRK_REQS"))
local reqs = {}

local counter = 0
local tid = 0
function setup(thread)
  thread:set("tid", tid)
  tid = tid + 1
end
function init(args)
  for i, r in ipairs(lines) do
    local hdrs = nil
    if r[3] then hdrs = {["Content-Type"] = "application/json"} end
    reqs[i] = wrk.format(r[1], r[2], hdrs, r[3])
  end
  -- Connections of different threads start at different places in the list.
  counter = (tonumber(tid) or 0) * 7919
end
function request()
  counter = counter + 1
  return reqs[(counter % #reqs) + 1]
end

function done(summary, latency, requests)
  if not os.getenv("WRK_OUT") then return end
  local e = summary.errors
  local out = assert(io.open(os.getenv("WRK_OUT"), "w"))
  out:write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max))
  out:close()
end
