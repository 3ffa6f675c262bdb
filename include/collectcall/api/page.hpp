// Pages of the API's lists (API.md section 17): a list answers at most `limit` items (default
// 100, 1 to 1,000) and at most about max_page_bytes of them, newest first, and hands out a cursor
// that continues after the last item. A cursor is opaque to clients; it names its list and whom
// it belongs to, so that a cursor of another list, customer or account is refused (400) instead
// of answering a page of something else.
//
// A position in a list is the sort key of an item (PageKey): the list is ordered by it, largest
// first, and the next page holds the items whose keys are smaller than the cursor's. Positions
// do not move when items are added, so that a list read page by page while it grows shows no
// item twice and skips none of those that were there when the reading began.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "collectcall/core/errors.hpp"
#include "collectcall/types/detail/ascii.hpp"
#include "collectcall/types/detail/hex.hpp"

namespace collectcall::api {

inline constexpr std::size_t default_page_limit = 100;
inline constexpr std::size_t max_page_limit = 1000;
// The stored bytes of a page's items: a page stops before the item that would take it past this,
// and holds at least one item (an item's size is bounded by its route's body limit).
inline constexpr std::size_t max_page_bytes = std::size_t{1} << 20;

// The query parameters of a paged list.
namespace page_parameter {
inline constexpr std::string_view limit = "limit";
inline constexpr std::string_view cursor = "cursor";
}  // namespace page_parameter

// The lists that come in pages; a cursor names its list.
enum class PagedList : std::uint8_t {
    calls = 1,
    interactions = 2,
    compliance_decisions = 3,
    drip_enrolments = 4,
    clients = 5,
};

// An item's place in its list's order: compared as a tuple, the list is ordered largest first.
// Each list uses as many parts as its order needs and leaves the others 0.
struct PageKey {
    std::array<std::int64_t, 4> parts{};

    friend constexpr auto operator<=>(const PageKey&, const PageKey&) = default;
};

// Whom a list belongs to: its account, and the customer for a customer's list ("" for the
// account's own lists).
struct PageOwner {
    PagedList list;
    std::string_view account;
    std::string_view customer = {};
};

// What a request asks of a list: at most `limit` items after `after` (none: from the newest).
struct PageRequest {
    std::size_t limit = default_page_limit;
    std::optional<PageKey> after;

    // The position the page begins after: `after`, or one above every item.
    [[nodiscard]] PageKey start() const noexcept {
        constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
        return after.value_or(PageKey{{top, top, top, top}});
    }
    // The items a store reads for the page: one more than the limit, to know whether one follows.
    [[nodiscard]] std::size_t rows_to_read() const noexcept { return limit + 1; }
};

// Where a page ends: at `limit` items, or before the item that would take its bytes past
// max_page_bytes (a page holds at least one item). Fed a list's items in order, it says which are
// on the page, and where the next page begins.
class PageBound {
  public:
    explicit PageBound(const PageRequest& request) noexcept : limit_(request.limit) {}

    // Whether the item at `key`, of `bytes`, is on the page. Once one is not, none after it is,
    // and next() is the position the next page begins after.
    [[nodiscard]] bool admit(const PageKey& key, std::size_t bytes) noexcept {
        if (full_) return false;
        if (count_ == limit_ || (count_ > 0 && bytes > max_page_bytes - bytes_)) {
            full_ = true;
            return false;
        }
        ++count_;
        bytes_ = bytes > max_page_bytes - bytes_ ? max_page_bytes : bytes_ + bytes;
        last_ = key;
        return true;
    }
    // The position after which the next page begins; none when no item was refused (the page
    // is the list's last).
    [[nodiscard]] std::optional<PageKey> next() const noexcept {
        return full_ ? std::optional<PageKey>(last_) : std::nullopt;
    }

  private:
    std::size_t limit_;
    std::size_t count_ = 0;
    std::size_t bytes_ = 0;
    bool full_ = false;
    PageKey last_{};
};

namespace detail {

inline constexpr std::uint8_t cursor_version = 1;
// version, list, owner (8 bytes), the key's four parts (8 bytes each).
inline constexpr std::size_t cursor_bytes = 1 + 1 + 8 + 8 * 4;

// FNV-1a over the owner: a cursor carries it to be compared, not to be kept secret (a cursor
// changed by its holder reads nothing but the holder's own list: every query of a page is
// scoped to the caller's account and customer).
constexpr std::uint64_t owner_fingerprint(const PageOwner& owner) noexcept {
    std::uint64_t h = 0xcbf29ce484222325ull;
    h ^= static_cast<std::uint8_t>(owner.list);
    h *= 0x100000001b3ull;
    const auto mix = [&h](std::string_view text) {
        for (char c : text) {
            h ^= static_cast<unsigned char>(c);
            h *= 0x100000001b3ull;
        }
        h ^= 0xff;  // ends the text: ("ab", "c") and ("a", "bc") differ
        h *= 0x100000001b3ull;
    };
    mix(owner.account);
    mix(owner.customer);
    return h;
}

constexpr void put_u64(unsigned char* out, std::uint64_t v) noexcept {
    for (int i = 7; i >= 0; --i) {
        out[i] = static_cast<unsigned char>(v & 0xff);
        v >>= 8;
    }
}
constexpr std::uint64_t get_u64(const unsigned char* in) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | in[i];
    return v;
}

}  // namespace detail

// The cursor of the page that follows the item at `last`.
[[nodiscard]] inline std::string page_cursor(const PageOwner& owner, const PageKey& last) {
    std::array<unsigned char, detail::cursor_bytes> bytes{};
    bytes[0] = detail::cursor_version;
    bytes[1] = static_cast<unsigned char>(owner.list);
    detail::put_u64(&bytes[2], detail::owner_fingerprint(owner));
    for (std::size_t i = 0; i < last.parts.size(); ++i)
        detail::put_u64(&bytes[10 + 8 * i], static_cast<std::uint64_t>(last.parts[i]));
    return collectcall::detail::hex_encode(bytes);
}

// The cursor of the page after one that ends at `next` (PageBound::next); none (null in an
// answer) after the last page.
[[nodiscard]] inline std::optional<std::string> next_page_cursor(
    const PageOwner& owner, const std::optional<PageKey>& next) {
    if (!next) return std::nullopt;
    return page_cursor(owner, *next);
}

// A list whose data is an array (GET /clients, as the hosted service answers it) has no member
// for its cursor: the next page is given as a link (RFC 8288), `Link: <path?limit=..&cursor=..>;
// rel="next"`, the path being the list's own.
inline constexpr std::string_view next_page_header = "Link";
[[nodiscard]] inline std::string next_page_link(std::string_view path, std::size_t limit,
                                                std::string_view cursor) {
    std::string out = "<";
    out += path;
    out += '?';
    out += page_parameter::limit;
    out += '=';
    out += std::to_string(limit);
    out += '&';
    out += page_parameter::cursor;
    out += '=';
    out += cursor;  // lower-case hex: nothing to escape
    out += ">; rel=\"next\"";
    return out;
}

// The position a cursor continues after, or the Problem with it: not a cursor at all, or one of
// another list or owner.
[[nodiscard]] inline Parsed<PageKey> read_page_cursor(const PageOwner& owner,
                                                      std::string_view cursor) {
    constexpr Problem malformed{codes::format, "is not a cursor this server gave"};
    constexpr Problem foreign{codes::format,
                              "is a cursor of another list: use the cursor of this list's "
                              "previous page"};
    std::array<unsigned char, detail::cursor_bytes> bytes{};
    // Lower case only, as page_cursor writes it: a cursor has one spelling.
    if (!collectcall::detail::lower_hex_decode_exact(cursor, bytes)) return malformed;
    if (bytes[0] != detail::cursor_version) return malformed;
    if (bytes[1] != static_cast<unsigned char>(owner.list) ||
        detail::get_u64(&bytes[2]) != detail::owner_fingerprint(owner)) {
        return foreign;
    }
    PageKey key;
    for (std::size_t i = 0; i < key.parts.size(); ++i)
        key.parts[i] = static_cast<std::int64_t>(detail::get_u64(&bytes[10 + 8 * i]));
    return key;
}

// Reads `limit` and `cursor` from a request's query parameters (name and value pairs, decoded):
// any other parameter, a repeated one, a limit that is not a whole number from 1 to
// max_page_limit, or a cursor that is not one of this list's is an error, each reported.
// Query parameters are not in a body: an error's path is "" and its message names the parameter.
template <class Parameters>
[[nodiscard]] Result<PageRequest> read_page_request(const Parameters& parameters,
                                                    const PageOwner& owner) {
    PageRequest request;
    ErrorList errors;
    bool seen_limit = false;
    bool seen_cursor = false;
    const std::string range = "from 1 to " + std::to_string(max_page_limit);
    const auto fail = [&](std::string_view code, std::string_view name, std::string_view what) {
        std::string message = "query parameter ";
        message += name;
        message += ' ';
        message += what;
        errors.push_back(Error{"", std::string(code), std::move(message)});
    };
    for (const auto& [name, value] : parameters) {
        if (name == page_parameter::limit) {
            if (std::exchange(seen_limit, true)) {
                fail(codes::duplicate_field, name, "appears more than once");
                continue;
            }
            std::size_t limit = 0;
            bool digits = !value.empty() && value.size() <= 7;
            for (char c : value) {
                digits = digits && collectcall::detail::is_digit(c);
                if (digits) limit = limit * 10 + static_cast<std::size_t>(c - '0');
            }
            if (!digits) {
                fail(codes::type, name, "must be a whole number " + range);
            } else if (limit < 1 || limit > max_page_limit) {
                fail(codes::range, name, "must be " + range);
            } else {
                request.limit = limit;
            }
        } else if (name == page_parameter::cursor) {
            if (std::exchange(seen_cursor, true)) {
                fail(codes::duplicate_field, name, "appears more than once");
                continue;
            }
            Parsed<PageKey> key = read_page_cursor(owner, value);
            if (key) {
                request.after = key.value();
            } else {
                fail(key.problem().code, name, key.problem().message);
            }
        } else {
            fail(codes::unknown_field, name, "is not known (limit and cursor are)");
        }
    }
    if (!errors.empty()) return Result<PageRequest>(std::move(errors));
    return Result<PageRequest>(std::move(request));
}

static_assert(default_page_limit >= 1 && default_page_limit <= max_page_limit);
static_assert(max_page_limit < 10'000'000, "read_page_request reads at most 7 digits");

}  // namespace collectcall::api
