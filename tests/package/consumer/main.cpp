// A program of another project using collectcall: the README's example, checked.
#include <collectcall/collectcall.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

int failures = 0;

void expect(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "consumer: FAILED: %s\n", what);
        ++failures;
    }
}

}  // namespace

int main() {
    // README example: start
    auto result = collectcall::read<collectcall::CustomerCreate>(R"({
        "externalId": "A-1", "firstName": "Ada", "lastName": "Lovelace",
        "email": "ada@example.com", "primaryPhone": "+14155550100",
        "address": {"line1": "1 Main St", "city": "Springfield", "state": "IL", "zip": "62701"}
    })");
    if (result.ok()) {
        std::string json = collectcall::write(result.value());  // compact JSON
        std::printf("%s\n", json.c_str());
    } else {
        for (const collectcall::Error& e : result.errors()) {
            std::printf("%s: %s (%s)\n", e.path.c_str(), e.message.c_str(), e.code.c_str());
        }
    }
    // README example: end
    expect(result.ok(), "a valid customer reads");
    if (result.ok()) {
        expect(result.value().address.zip.view() == "62701", "members hold the document's values");
        auto again =
            collectcall::read<collectcall::CustomerCreate>(collectcall::write(result.value()));
        expect(again.ok() && again.value() == result.value(),
               "write then read gives the same value");
    }

    auto invalid = collectcall::read<collectcall::CustomerCreate>(
        R"({"externalId":"A-2","firstName":"Bo","lastName":"X","email":"bo@","primaryPhone":"+1"})");
    expect(!invalid.ok(), "an invalid customer is refused");
    bool email = false;
    bool address = false;
    for (const collectcall::Error& e : invalid.errors()) {
        email = email || (e.path == "/email" && e.code == "format");
        address = address || (e.path == "/address" && e.code == "required");
    }
    expect(email && address, "every error is reported with its path and code");

#ifdef COLLECTCALL_EXPECTED_VERSION
    expect(std::string_view(COLLECTCALL_VERSION_STRING) == COLLECTCALL_EXPECTED_VERSION,
           "the header's version is the package's version");
#endif
    std::printf("collectcall %s: %s\n", COLLECTCALL_VERSION_STRING,
                failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
