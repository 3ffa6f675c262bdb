-- POST /api/v1/customers, every request a new externalId.   args: run-id api-key
function init(args)
  run_id = args[1]
  wrk.method = "POST"
  wrk.path = "/api/v1/customers"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local id = string.format("%s-c%d-%d", run_id, thread_number, counter)
  return wrk.format(nil, nil, nil, customer_json(id, counter))
end
