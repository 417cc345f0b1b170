-- wrk script: cycles through the request paths in the file named by env REQUESTS (one path per line),
-- each thread starting at a different offset so threads do not send the same request at once.
-- With env ACCEPT_ENCODING, every request carries that Accept-Encoding header (as the SDKs' HTTP stacks send one).
local paths = {}
local index = 0
local encoding = os.getenv("ACCEPT_ENCODING")
if encoding and #encoding > 0 then wrk.headers["Accept-Encoding"] = encoding end

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
