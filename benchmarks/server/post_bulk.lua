-- POST /api/v1/customers/bulk with N new customers per request.   args: run-id api-key N
-- The body of every request is the same but for one prefix of its externalIds: the pieces
-- around that prefix are built once, so that wrk, which shares the machine with the server,
-- spends its time sending requests rather than formatting 500 customers for each.
function init(args)
  run_id = args[1]
  items_per_request = tonumber(args[3] or "100")
  wrk.method = "POST"
  wrk.path = "/api/v1/customers/bulk"
  wrk.headers["Authorization"] = "Bearer " .. args[2]
  wrk.headers["Content-Type"] = "application/json"
  -- pieces[2i-1] is the text before item i's prefix, pieces[2i] the text after it; the prefix
  -- goes into the empty slots between them.
  local marker = "\1"
  pieces = {}
  for i = 1, items_per_request do
    local item = customer_json(marker .. "-" .. i, i)
    local at = item:find(marker, 1, true)
    pieces[#pieces + 1] = (i == 1 and '{"customers":[' or ",") .. item:sub(1, at - 1)
    pieces[#pieces + 1] = false
    pieces[#pieces + 1] = item:sub(at + 1) .. (i == items_per_request and "]}" or "")
  end
end

function request()
  counter = counter + 1
  local prefix = string.format("%s-b%d-%d", run_id, thread_number, counter)
  for i = 2, #pieces, 3 do
    pieces[i] = prefix
  end
  return wrk.format(nil, nil, nil, table.concat(pieces))
end
