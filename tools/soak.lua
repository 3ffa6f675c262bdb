-- wrk script for tools/soak.sh: mixed traffic with distinct externalIds.
-- Each thread creates customers (POST), then works on the ones it created: GET by id, lookup by
-- externalId, PATCH, POST a call. Any status other than 200/201 is counted as unexpected.
local key = os.getenv("SOAK_KEY")
local agent = os.getenv("SOAK_AGENT")
local run = os.getenv("SOAK_RUN") or "0"
local threads = {}
local counter = 1

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local n = 0
local ids = {}
local step = 0
unexpected = 0
local statuses = {}
first_unexpected = nil

local function customer(ext)
  return '{"externalId":"' .. ext .. '","firstName":"Ann","lastName":"Lee",' ..
    '"email":"ann@example.com","primaryPhone":"+13125550123",' ..
    '"address":{"line1":"1 Main St","city":"Springfield","state":"IL","zip":"60601"},' ..
    '"ssnLastFour":"1234","dateOfBirth":"1980-02-29",' ..
    '"collections":{"totalBalance":1234.56,"principalBalance":1000}}'
end

function init(args)
  wrk.headers["Authorization"] = "Bearer " .. key
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  step = step + 1
  local kind = step % 5
  if kind == 0 or #ids == 0 then
    n = n + 1
    local ext = "soak-" .. run .. "-" .. tid .. "-" .. n
    return wrk.format("POST", "/api/v1/customers", nil, customer(ext))
  end
  local id = ids[(step * 7919) % #ids + 1]
  if kind == 1 then
    return wrk.format("GET", "/api/v1/customers/" .. id)
  elseif kind == 2 then
    return wrk.format("PATCH", "/api/v1/customers/" .. id, nil,
      '{"firstName":"Ada' .. step .. '"}')
  elseif kind == 3 then
    return wrk.format("GET", "/api/v1/customers?externalId=soak-" .. run .. "-" .. tid .. "-" .. n)
  else
    return wrk.format("POST", "/api/v1/customers/" .. id .. "/calls", nil,
      '{"agentId":"' .. agent .. '"}')
  end
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  -- A call beyond the day's limit of a customer is blocked by compliance: 422 is expected then.
  local ok = status == 200 or status == 201 or
    (status == 422 and body:find('"compliance_failed"', 1, true))
  if not ok then
    unexpected = unexpected + 1
    if not first_unexpected then first_unexpected = status .. " " .. body:sub(1, 300) end
  end
  if status == 201 and body:find('"externalId":"soak-', 1, true) then
    -- A created customer: its id is the first "id" member (nested objects have none).
    local id = body:match('"id":"([0-9a-f%-]+)"')
    if id and #ids < 5000 then table.insert(ids, id) end
  end
end

function done(summary, latency, requests)
  local total_unexpected = 0
  for _, thread in ipairs(threads) do
    total_unexpected = total_unexpected + (thread:get("unexpected") or 0)
    local first = thread:get("first_unexpected")
    if first then io.write("first unexpected: " .. first .. "\n") end
  end
  io.write(string.format("requests %d errors(connect %d read %d write %d status %d timeout %d)\n",
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.status, summary.errors.timeout))
  io.write(string.format("latency p50 %.2f ms p99 %.2f ms max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write("unexpected " .. total_unexpected .. "\n")
end
