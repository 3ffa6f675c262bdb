-- POST /api/v1/customers/bulk with N new customers per request.   args: run-id api-key N
function init(args)
  run_id = args[1]
  items_per_request = tonumber(args[3] or "100")
  wrk.method = "POST"
  wrk.path = "/api/v1/customers/bulk"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local items = {}
  for i = 1, items_per_request do
    items[i] = customer_json(string.format("%s-b%d-%d-%d", run_id, thread_number, counter, i), i)
  end
  return wrk.format(nil, nil, nil, '{"customers":[' .. table.concat(items, ",") .. ']}')
end
