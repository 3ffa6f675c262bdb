-- Shared by the wrk scenarios of benchmarks/server/run.sh (prepended to each scenario script):
-- numbers the threads, counts responses by status in every thread, builds request bodies with
-- distinct externalIds, and prints the results as one JSON line (WRK_JSON ...) when wrk is done.

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

statuses = {}
counter = 0

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

-- A customer with collections, about 700 bytes, in New York (inside respectful hours at the
-- frozen clock the server runs with).
local customer_template = '{"externalId":"%s","firstName":"Maria","middleName":"Elena",' ..
  '"lastName":"Gonzalez","email":"maria.gonzalez@example.com","primaryPhone":"+1212555%04d",' ..
  '"secondaryPhone":null,"address":{"line1":"3934 Main St","line2":"Suite 941B",' ..
  '"city":"New York","state":"NY","zip":"10001"},"ssnLastFour":"3306","dateOfBirth":"1954-02-13",' ..
  '"collections":{"totalBalance":10426.15,"principalBalance":13965.94,' ..
  '"originalCreditor":"Northwind Financial","accruedInterestAmount":1383.22,' ..
  '"chargeOffDate":"2024-12-10","firstDelinquencyDate":"2017-02-19",' ..
  '"settlementAggregationRate":0.36,"originalAccountNumber":"6198058396679057",' ..
  '"productType":"auto_loan","originalProductType":"Visa Platinum"}}'

function customer_json(external_id, n)
  return string.format(customer_template, external_id, n % 10000)
end

-- One id per line.
function read_lines(path)
  local lines = {}
  for line in io.lines(path) do
    if line ~= "" then table.insert(lines, line) end
  end
  return lines
end

function done(summary, latency, requests)
  local merged = {}
  for _, thread in ipairs(threads) do
    for code, n in pairs(thread:get("statuses")) do
      merged[code] = (merged[code] or 0) + n
    end
  end
  local parts = {}
  for code, n in pairs(merged) do
    table.insert(parts, string.format('"%d":%d', code, n))
  end
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,' ..
    '"p95_us":%d,"p99_us":%d,"max_us":%d,"connect_errors":%d,"read_errors":%d,' ..
    '"write_errors":%d,"timeouts":%d,"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50),
    latency:percentile(90), latency:percentile(95), latency:percentile(99), latency.max,
    summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout, table.concat(parts, ",")))
end
