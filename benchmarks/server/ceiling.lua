-- POST a customer body to the minimal server.
function init(args)
  wrk.method = "POST"
  wrk.path = "/api/v1/customers"
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = customer_json("ceiling", 1)
end
