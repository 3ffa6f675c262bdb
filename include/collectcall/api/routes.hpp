// The route table of the HTTP API: one row for each endpoint of api/endpoints.hpp, in the order
// of `Operation`, and the matching of a request's method and path against it. The example server
// routes by this table and the OpenAPI document (api/openapi.hpp) is generated from it, so the
// two cannot disagree.
//
// Not part of the umbrella header: a user of the models alone does not need the server's routes.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/describe/enumerators.hpp>

#include "collectcall/api/endpoints.hpp"
#include "collectcall/api/route.hpp"
#include "collectcall/core/enum.hpp"

namespace collectcall::api {

namespace detail {

template <template <class...> class L, class... D>
constexpr std::array<Route, sizeof...(D)> route_table(L<D...>) {
    const auto row = [](Operation operation, Route route) {
        route.operation = operation;
        return route;
    };
    return {row(D::value, endpoint<D::value>::route)...};
}

}  // namespace detail

// Every endpoint's route, indexed by its Operation.
inline constexpr std::array routes =
    detail::route_table(boost::describe::describe_enumerators<Operation>{});

// The largest body any route reads.
inline constexpr std::size_t largest_body = [] {
    std::size_t largest = 0;
    for (const Route& r : routes)
        largest = r.max_body > largest ? r.max_body : largest;
    return largest;
}();

[[nodiscard]] constexpr const Route& route(Operation operation) noexcept {
    return routes[static_cast<std::size_t>(operation)];
}

static_assert(
    [] {
        for (std::size_t i = 0; i < routes.size(); ++i) {
            if (static_cast<std::size_t>(enum_values<Operation>[i]) != i) return false;
        }
        return true;
    }(),
    "Operation's values are 0, 1, 2, ...: the route table is indexed by them");

// The OpenAPI operationId: the operation's name in camel case.
[[nodiscard]] inline std::string operation_id(Operation operation) {
    std::string out;
    bool upper = false;
    for (char c : enum_name(operation)) {
        if (c == '-') {
            upper = true;
        } else {
            out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
            upper = false;
        }
    }
    return out;
}

// Matching a request's path against the routes.
struct RouteMatch {
    const Route* route = nullptr;  // the route of this method, if the path has one
    std::string allow;             // otherwise the methods the path has ("" = unknown path)
    // The segments that matched the "{...}" of the route's path, in order, percent-decoded.
    std::vector<std::string> parameters;
};

// The most "{...}" segments a route's path has.
inline constexpr std::size_t max_path_parameters = 2;

namespace detail {

constexpr int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Calls `each(byte)` for the bytes of one raw path segment, percent-decoded (RFC 3986 section
// 2.1); a '%' not followed by two hex digits stands for itself.
template <class Each>
constexpr void for_each_decoded(std::string_view segment, Each&& each) {
    for (std::size_t i = 0; i < segment.size(); ++i) {
        if (segment[i] == '%' && i + 2 < segment.size() && hex_digit(segment[i + 1]) >= 0 &&
            hex_digit(segment[i + 2]) >= 0) {
            each(static_cast<char>(hex_digit(segment[i + 1]) * 16 + hex_digit(segment[i + 2])));
            i += 2;
        } else {
            each(segment[i]);
        }
    }
}

// Whether a raw segment, decoded, is `literal`.
constexpr bool segment_is(std::string_view segment, std::string_view literal) {
    std::size_t at = 0;
    bool same = true;
    for_each_decoded(segment, [&](char c) {
        same = same && at < literal.size() && literal[at] == c;
        ++at;
    });
    return same && at == literal.size();
}

// Whether a raw segment, decoded, holds a '/': "%2F" never separates segments, and no
// parameter of the API contains a '/' (RFC 3986 section 7.3: a decoded '/' would give the path
// a structure a proxy matching segments does not see).
constexpr bool has_encoded_slash(std::string_view segment) {
    bool slash = false;
    for_each_decoded(segment, [&](char c) { slash = slash || c == '/'; });
    return slash;
}

inline std::string decode_segment(std::string_view segment) {
    std::string out;
    out.reserve(segment.size());
    for_each_decoded(segment, [&](char c) { out += c; });
    return out;
}

// The raw segments of a path that matched its pattern's "{...}", in order.
struct PathSegments {
    std::array<std::string_view, max_path_parameters> segments{};
    std::size_t count = 0;
};

// The number of literal segments `path` matches of `pattern` (more is more specific), or -1.
// `path` is the request target's path as sent: it is split on '/' first, and each segment is
// percent-decoded only to be compared, so an encoded '/' stays inside its segment.
constexpr int match_path(std::string_view pattern, std::string_view path,
                         PathSegments& parameters) {
    int literal = 0;
    parameters.count = 0;
    while (!pattern.empty() || !path.empty()) {
        if (pattern.empty() || path.empty() || pattern.front() != '/' || path.front() != '/') {
            return -1;
        }
        pattern.remove_prefix(1);
        path.remove_prefix(1);
        const std::string_view p = pattern.substr(0, pattern.find('/'));
        const std::string_view s = path.substr(0, path.find('/'));
        if (!p.empty() && p.front() == '{') {
            if (s.empty() || has_encoded_slash(s) || parameters.count == max_path_parameters)
                return -1;
            parameters.segments[parameters.count++] = s;
        } else if (segment_is(s, p)) {
            ++literal;
        } else {
            return -1;
        }
        pattern.remove_prefix(p.size());
        path.remove_prefix(s.size());
    }
    return literal;
}

}  // namespace detail

// The route of `method` and `path` (the path of the request target as sent, before any
// percent-decoding): the most specific pattern wins (/customers/bulk over
// /customers/{customerId}); HEAD is GET without the body. A path whose pattern has no route of
// the method gives the methods it has instead (405 with Allow); no pattern at all, neither (404).
// A segment is matched decoded, but '/' is found only between segments: "%2F" (or "%2f") never
// separates them, and a segment that decodes to text with a '/' matches no parameter.
[[nodiscard]] inline RouteMatch match_route(std::string_view method, std::string_view path) {
    const std::string_view wanted = method == "HEAD" ? std::string_view("GET") : method;
    int best = -1;
    detail::PathSegments best_parameters;
    for (const Route& r : routes) {
        detail::PathSegments parameters;
        const int score = detail::match_path(r.path, path, parameters);
        if (score > best) {
            best = score;
            best_parameters = parameters;
        }
    }
    RouteMatch match;
    if (best < 0) return match;
    for (std::size_t i = 0; i < best_parameters.count; ++i)
        match.parameters.push_back(detail::decode_segment(best_parameters.segments[i]));
    for (const Route& r : routes) {
        detail::PathSegments parameters;
        if (detail::match_path(r.path, path, parameters) != best) continue;
        if (r.method == wanted) {
            match.route = &r;
            match.allow.clear();
            return match;
        }
        if (!match.allow.empty()) match.allow += ", ";
        match.allow += r.method;
        if (r.method == "GET") match.allow += ", HEAD";
    }
    return match;
}

}  // namespace collectcall::api
