-- wrk script: cycles through the request paths in the file named by env REQUESTS (one path per line),
-- each thread starting at a different offset so threads do not send the same request at once.
local paths = {}
local index = 0

function init(args)
  local file = assert(io.open(os.getenv("REQUESTS"), "r"))
  for line in file:lines() do
    if #line > 0 then paths[#paths + 1] = line end
  end
  file:close()
  index = math.random(#paths)
end

function request()
  index = index % #paths + 1
  return wrk.format("GET", paths[index])
end

-- With env MAX_REQUESTS, each of wrk's threads stops after its share of that many responses (wrk's -d still bounds the time).
local limit = tonumber(os.getenv("MAX_REQUESTS") or "")
local answered = 0
if limit then
  function response(status, headers, body)
    answered = answered + 1
    if answered >= limit / tonumber(os.getenv("WRK_THREADS") or "1") then wrk.thread:stop() end
  end
end
