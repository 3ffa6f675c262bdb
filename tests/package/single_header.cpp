// Uses collectcall through single_include/ alone: include/ is not on this target's include path.
#include <collectcall/collectcall.hpp>
#include <collectcall/collectcall.hpp>  // a second inclusion is harmless
#if COLLECTCALL_TEST_WEBHOOK
#include <collectcall/webhook.hpp>
#endif
#if COLLECTCALL_TEST_COMPLIANCE
#include <collectcall/compliance.hpp>
#endif

#include <cstdio>
#include <string>
#include <string_view>

#if __has_include(<collectcall/core/read.hpp>)
#error "the single-header test must not see include/"
#endif

// Defined in single_header_second.cpp, which includes the same headers.
std::size_t count_errors_elsewhere(std::string_view json);

namespace {

int failures = 0;

void expect(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "single_header: FAILED: %s\n", what);
        ++failures;
    }
}

constexpr std::string_view valid_customer =
    R"({"externalId":"A-1","firstName":"Ada","lastName":"Lovelace","email":"ada@example.com",)"
    R"("primaryPhone":"+14155550100","address":{"line1":"1 Main St","city":"Springfield",)"
    R"("state":"IL","zip":"62701"},"ssnLastFour":"1234","dateOfBirth":"1980-02-29",)"
    R"("collections":{"totalBalance":1200.50}})";

}  // namespace

int main() {
    using collectcall::CustomerCreate;

    auto customer = collectcall::read<CustomerCreate>(valid_customer);
    expect(customer.ok(), "a valid customer reads");
    if (customer.ok()) {
        auto again = collectcall::read<CustomerCreate>(collectcall::write(customer.value()));
        expect(again.ok() && again.value() == customer.value(), "write then read round-trips");
    }

    auto invalid = collectcall::read<CustomerCreate>(R"({"externalId":"A-2","email":"x"})");
    bool email_format = false;
    bool first_name_required = false;
    for (const collectcall::Error& e : invalid.errors()) {
        email_format = email_format || (e.path == "/email" && e.code == "format");
        first_name_required =
            first_name_required || (e.path == "/firstName" && e.code == "required");
    }
    expect(!invalid.ok() && email_format && first_name_required,
           "every error is reported with its JSON Pointer path and code");

    const std::string bulk = std::string(R"({"customers":[)") + std::string(valid_customer) +
                             R"(,{"externalId":"A-3"}]})";
    auto request = collectcall::read<collectcall::BulkCreateRequest>(bulk);
    expect(request.ok() && request.value().customers.size() == 2 &&
               request.value().customers[0].ok() && !request.value().customers[1].ok(),
           "a bulk body keeps each item's verdict");

    expect(count_errors_elsewhere(R"({"externalId":"A-2","email":"x"})") == invalid.errors().size(),
           "a second translation unit gives the same result");

    expect(std::string_view(COLLECTCALL_VERSION_STRING) == COLLECTCALL_EXPECTED_VERSION,
           "COLLECTCALL_VERSION_STRING is the CMake project version");

#if COLLECTCALL_TEST_WEBHOOK
    {
        const std::string secret = collectcall::webhook::generate_secret();
        auto key = collectcall::webhook::decode_secret(secret);
        expect(key.has_value() && collectcall::webhook::encode_secret(*key) == secret,
               "webhook.hpp: a generated secret decodes and encodes back");
    }
#endif
#if COLLECTCALL_TEST_COMPLIANCE
    expect(!collectcall::compliance::all_checks.empty(), "compliance.hpp: the checks are listed");
#endif

    std::printf("single header collectcall %s: %s\n", COLLECTCALL_VERSION_STRING,
                failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
