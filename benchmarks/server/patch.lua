-- PATCH /api/v1/customers/{id}: a merge patch of the address, over existing customers.
--   args: run-id api-key ids-file
function init(args)
  ids = read_lines(args[3])
  wrk.method = "PATCH"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  local id = ids[((thread_number * 7919 + counter) % #ids) + 1]
  local body = string.format('{"address":{"line2":"Apt %d"},"middleName":null}', counter % 1000)
  return wrk.format(nil, "/api/v1/customers/" .. id, nil, body)
end
