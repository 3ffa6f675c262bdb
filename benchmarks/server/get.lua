-- GET /api/v1/customers/{id}: existing customers, one after another.
--   args: run-id api-key ids-file
function init(args)
  ids = read_lines(args[3])
  wrk.method = "GET"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
end

function request()
  counter = counter + 1
  local id = ids[((thread_number * 7919 + counter) % #ids) + 1]
  return wrk.format(nil, "/api/v1/customers/" .. id)
end
