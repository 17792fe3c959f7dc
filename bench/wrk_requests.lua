-- wrk script: cycles through the requests listed in the file named by env WRK_REQS
-- (one per line: METHOD<TAB>PATH[<TAB>JSON_BODY]), as ../shared/bench/scripts/wrk_requests.lua
-- does, without a per-response Lua callback (wrk counts non-2xx answers itself).
local reqs = {}
local f = assert(io.open(os.getenv("WRK_REQS"), "r"))
for line in f:lines() do
  local m, p, b = line:match("^(%S+)\t([^\t]+)\t?(.*)$")
  if m then
    if b == "" then b = nil end
    local hdrs = nil
    if b then hdrs = {["Content-Type"] = "application/json"} end
    reqs[#reqs + 1] = wrk.format(m, p, hdrs, b)
  end
end
f:close()
local counter = 0
local tid = 0
function setup(thread)
  thread:set("tid", tid)
  tid = tid + 1
end
function init(args)
  counter = (tonumber(tid) or 0) * 137
end
function request()
  counter = counter + 1
  return reqs[(counter % #reqs) + 1]
end
