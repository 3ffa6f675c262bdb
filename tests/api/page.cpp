// Pages of the lists (api/page.hpp): reading limit and cursor, cursors bound to their list and
// owner, and where a page ends.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <collectcall/api/page.hpp>

using namespace collectcall;
using api::PageBound;
using api::PagedList;
using api::PageKey;
using api::PageOwner;
using api::PageRequest;

namespace {

using Parameters = std::multimap<std::string, std::string>;

const PageOwner owner{PagedList::interactions, "account-a", "customer-1"};

Result<PageRequest> read(const Parameters& parameters, const PageOwner& o = owner) {
    return api::read_page_request(parameters, o);
}

}  // namespace

TEST_CASE("page request: the default, a limit, a cursor", "[page]") {
    const auto none = read({});
    REQUIRE(none);
    CHECK(none.value().limit == api::default_page_limit);
    CHECK_FALSE(none.value().after);
    CHECK(none.value().rows_to_read() == api::default_page_limit + 1);

    const auto one = read({{"limit", "1"}});
    REQUIRE(one);
    CHECK(one.value().limit == 1);
    const auto most = read({{"limit", "1000"}});
    REQUIRE(most);
    CHECK(most.value().limit == api::max_page_limit);

    const PageKey key{{1'700'000'000'000, 1, -5, 0}};
    const auto cursor = read({{"cursor", api::page_cursor(owner, key)}, {"limit", "7"}});
    REQUIRE(cursor);
    REQUIRE(cursor.value().after);
    CHECK(*cursor.value().after == key);  // negative parts too
    CHECK(cursor.value().limit == 7);
    CHECK(cursor.value().start() == key);
    CHECK(none.value().start() > key);
}

TEST_CASE("page request: each problem reported with its parameter", "[page]") {
    const auto code_of = [](const Parameters& p) {
        const auto r = read(p);
        REQUIRE_FALSE(r);
        REQUIRE(r.errors().size() == 1);
        CHECK(r.errors()[0].path.empty());
        return r.errors()[0].code;
    };
    CHECK(code_of({{"limit", "0"}}) == "range");
    CHECK(code_of({{"limit", "1001"}}) == "range");
    CHECK(code_of({{"limit", "9999999"}}) == "range");
    CHECK(code_of({{"limit", "10000000"}}) == "type");  // more digits than any limit has
    CHECK(code_of({{"limit", ""}}) == "type");
    CHECK(code_of({{"limit", "+5"}}) == "type");
    CHECK(code_of({{"limit", "5 "}}) == "type");
    CHECK(code_of({{"limit", "1e3"}}) == "type");
    CHECK(code_of({{"limit", "5"}, {"limit", "6"}}) == "duplicate_field");
    CHECK(code_of({{"cursor", "x"}}) == "format");
    CHECK(code_of({{"offset", "10"}}) == "unknown_field");

    const auto two = read({{"limit", "0"}, {"sort", "asc"}});
    REQUIRE_FALSE(two);
    REQUIRE(two.errors().size() == 2);
    CHECK(two.errors()[0].message == "query parameter limit must be from 1 to 1000");
    CHECK(two.errors()[1].message == "query parameter sort is not known (limit and cursor are)");
}

TEST_CASE("page cursor: bound to its list and owner, one spelling", "[page]") {
    const PageKey key{{42, 1, 7, 0}};
    const std::string cursor = api::page_cursor(owner, key);
    CHECK(cursor.size() == 84);
    CHECK(cursor.find_first_not_of("0123456789abcdef") == std::string::npos);
    REQUIRE(api::read_page_cursor(owner, cursor));

    const std::vector<PageOwner> others{
        {PagedList::calls, "account-a", "customer-1"},
        {PagedList::interactions, "account-b", "customer-1"},
        {PagedList::interactions, "account-a", "customer-2"},
        {PagedList::interactions, "account-acustomer-1", ""},  // the same bytes, cut elsewhere
        {PagedList::clients, "account-a", ""},
    };
    for (const PageOwner& other : others) {
        const auto read_back = api::read_page_cursor(other, cursor);
        REQUIRE_FALSE(read_back);
        CHECK(std::string(read_back.problem().message).find("another list") != std::string::npos);
    }

    std::string upper = cursor;
    for (char& c : upper)
        c = (c >= 'a' && c <= 'f') ? static_cast<char>(c - 32) : c;
    if (upper != cursor) CHECK_FALSE(api::read_page_cursor(owner, upper));
    CHECK_FALSE(api::read_page_cursor(owner, cursor.substr(2)));
    CHECK_FALSE(api::read_page_cursor(owner, cursor + "00"));
    std::string version = cursor;
    version[1] = '2';  // a version this server does not write
    CHECK_FALSE(api::read_page_cursor(owner, version));
    std::string bad = cursor;
    bad[10] = 'g';
    CHECK_FALSE(api::read_page_cursor(owner, bad));
}

TEST_CASE("page bound: the limit, the bytes, at least one item", "[page]") {
    const auto keys = [](int n) {
        std::vector<PageKey> out;
        for (int i = n; i > 0; --i)
            out.push_back(PageKey{{i}});
        return out;
    };
    SECTION("at the limit, the next page begins after the last item on it") {
        PageBound bound(PageRequest{3, std::nullopt});
        const auto k = keys(5);
        CHECK(bound.admit(k[0], 10));
        CHECK(bound.admit(k[1], 10));
        CHECK(bound.admit(k[2], 10));
        CHECK_FALSE(bound.admit(k[3], 10));
        CHECK_FALSE(bound.admit(k[4], 1));  // once full, nothing more
        REQUIRE(bound.next());
        CHECK(*bound.next() == k[2]);
    }
    SECTION("a list that ends on the page has no next page") {
        PageBound bound(PageRequest{3, std::nullopt});
        const auto k = keys(3);
        for (const PageKey& key : k)
            CHECK(bound.admit(key, 10));
        CHECK_FALSE(bound.next());
    }
    SECTION("bytes: the item that would cross max_page_bytes waits for the next page") {
        PageBound bound(PageRequest{100, std::nullopt});
        const auto k = keys(10);
        const std::size_t quarter = api::max_page_bytes / 4;
        for (int i = 0; i < 4; ++i)
            CHECK(bound.admit(k[i], quarter));
        CHECK_FALSE(bound.admit(k[4], 1));
        CHECK(*bound.next() == k[3]);
    }
    SECTION("one item larger than a page is a page of its own") {
        PageBound bound(PageRequest{100, std::nullopt});
        const auto k = keys(3);
        CHECK(bound.admit(k[0], api::max_page_bytes * 3));
        CHECK_FALSE(bound.admit(k[1], 1));
        CHECK(*bound.next() == k[0]);
    }
}

TEST_CASE("next page link: the list's path, its limit and the cursor", "[page]") {
    CHECK(api::next_page_link("/api/v1/clients", 2, "ab12") ==
          R"(</api/v1/clients?limit=2&cursor=ab12>; rel="next")");
    CHECK(api::next_page_cursor(owner, std::nullopt) == std::nullopt);
    CHECK(api::next_page_cursor(owner, PageKey{{1}}) == api::page_cursor(owner, PageKey{{1}}));
}
