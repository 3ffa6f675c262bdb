-- POST /api/v1/customers/bulk with 100 new customers per request.   args: run-id api-key
function init(args)
  run_id = args[1]
  wrk.method = "POST"
  wrk.path = "/api/v1/customers/bulk"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local items = {}
  for i = 1, 100 do
    items[i] = customer_json(string.format("%s-b%d-%d-%d", run_id, thread_number, counter, i), i)
  end
  return wrk.format(nil, nil, nil, '{"customers":[' .. table.concat(items, ",") .. ']}')
end
