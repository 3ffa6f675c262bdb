// The ceiling for the example server's HTTP stack: a minimal cpp-httplib server, configured like
// collectcall-server (thread pool, keep-alive, TCP_NODELAY), that answers every request with a
// fixed JSON body the size of a created customer. Whatever the example server does beyond this
// (validation, SQLite, the envelope) shows as the distance to this server's figures.
//
//   collectcall_bench_ceiling PORT [THREADS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <httplib.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s PORT [THREADS]\n", argv[0]);
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    const std::size_t threads = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2]))
                                         : std::max<std::size_t>(16, 4 * cores);

    static const std::string body =
        R"({"requestId":"5e000000-0000-4000-8000-000000000001","success":true,"data":{)"
        R"("externalId":"crm-100001-7272","firstName":"Maria","middleName":null,"lastName":"Gonzalez",)"
        R"("email":"maria.gonzalez889@example.com","primaryPhone":"+12125550123","secondaryPhone":null,)"
        R"("address":{"line1":"3934 Main St","line2":"Suite 941B","city":"New York","state":"NY",)"
        R"("zip":"10001"},"ssnLastFour":"3306","dateOfBirth":"1954-02-13","collections":{)"
        R"("totalBalance":10426.15,"principalBalance":13965.94,"originalCreditor":"Northwind Financial",)"
        R"("accruedInterestAmount":1383.22,"chargeOffDate":"2024-12-10","firstDelinquencyDate":"2017-02-19",)"
        R"("settlementAggregationRate":0.36,"originalAccountNumber":"6198058396679057",)"
        R"("itemizationBalance":null,"postItemizationInterest":null,"postItemizationFees":null,)"
        R"("postItemizationCredits":null,"postItemizationPayments":null,"productType":"auto_loan",)"
        R"("originalProductType":"Hospital Services"},"id":"5e000000-0000-4000-8000-000000000002",)"
        R"("createdAt":"2026-11-20T17:00:00.000Z","updatedAt":"2026-11-20T17:00:00.000Z"}})";

    httplib::Server server;
    server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server.set_tcp_nodelay(true);
    server.set_keep_alive_max_count(1000);
    const auto answer = [](const httplib::Request&, httplib::Response& response) {
        response.status = 201;
        response.set_content(body, "application/json");
    };
    server.Get(".*", answer);
    server.Post(".*", answer);
    server.Patch(".*", answer);
    if (!server.listen("127.0.0.1", port)) {
        std::fprintf(stderr, "cannot listen on 127.0.0.1:%d\n", port);
        return 1;
    }
    return 0;
}
