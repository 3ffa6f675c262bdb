-- POST /api/v1/customers/{id}/calls over existing customers. Compliance allows 4 calls per
-- customer per day, so once a customer has had 4, its calls are refused with 422
-- compliance_failed: an expected answer.
--   args: run-id api-key ids-file agent-id wrk-threads
function init(args)
  ids = read_lines(args[3])
  body = string.format('{"agentId":"%s"}', args[4])
  thread_count = tonumber(args[5])
  wrk.method = "POST"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  counter = counter + 1
  -- The threads interleave over the ids: one call per customer per pass.
  local id = ids[((counter - 1) * thread_count + thread_number - 1) % #ids + 1]
  return wrk.format(nil, "/api/v1/customers/" .. id .. "/calls", nil, body)
end
