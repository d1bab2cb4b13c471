-- wrk script: GET /api/v1/international?fen=... cycling through the positions of the file named
-- by the environment variable DTB_FENS (one URL-encoded FEN per line); counts answers that are
-- not 200 so that the run reports them.
local fens = {}
for line in io.lines(os.getenv("DTB_FENS")) do fens[#fens + 1] = line end
local counter = 0
local bad = 0

request = function()
  counter = counter + 1
  return wrk.format("GET", "/api/v1/international?fen=" .. fens[(counter % #fens) + 1])
end

response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end

done = function(summary, latency, requests)
  io.write(string.format("positions %d, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, non-200 %d (this thread's count)\n",
                         #fens, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
                         latency:percentile(99) / 1000, bad))
end
