-- POST /api/v1/customers with an Idempotency-Key, every request a new key and externalId.
-- args: run-id api-key
function init(args)
  run_id = args[1]
  -- wrk.format's headers replace wrk.headers: the key goes with the others.
  headers = {["Authorization"] = "Bearer " .. args[2], ["Content-Type"] = "application/json"}
end

function request()
  counter = counter + 1
  local id = string.format("%s-k%d-%d", run_id, thread_number, counter)
  headers["Idempotency-Key"] = id
  return wrk.format("POST", "/api/v1/customers", headers, customer_json(id, counter))
end
