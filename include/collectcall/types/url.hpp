// Url: an absolute http:// or https:// URL, as a webhook target: host, port and request target.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/detail/ascii.hpp"

namespace collectcall {

namespace detail {

// Strict dotted-quad IPv4: four decimal parts 0-255 without leading zeros. The liberal forms
// that inet_aton and browsers accept ("127.1", "0x7f.0.0.1", "0177.0.0.1") are refused, because
// they let an address hide from a blocklist that only knows the dotted-quad spelling.
constexpr bool is_ipv4(std::string_view text) noexcept {
    std::size_t parts = 0;
    while (true) {
        const std::size_t dot = text.find('.');
        const std::string_view part = text.substr(0, dot);
        if (part.empty() || part.size() > 3 || !all_digits(part)) return false;
        if (part.size() > 1 && part[0] == '0') return false;
        if (digits_value(part) > 255) return false;
        if (++parts > 4) return false;
        if (dot == std::string_view::npos) break;
        text.remove_prefix(dot + 1);
    }
    return parts == 4;
}

// RFC 4291 section 2.2 text form: eight groups of 1-4 hex digits, one "::" standing for one or
// more zero groups, optionally ending in a dotted quad that counts as two groups. Zone ids
// ("%eth0") and IPvFuture are not accepted.
constexpr bool is_ipv6(std::string_view text) noexcept {
    std::size_t groups = 0;
    bool compressed = false;
    std::size_t at = 0;
    if (text.substr(0, 2) == "::") {
        compressed = true;
        at = 2;
    } else if (text.substr(0, 1) == ":") {
        return false;
    }
    while (at < text.size()) {
        const std::size_t colon = text.find(':', at);
        const std::string_view group =
            text.substr(at, colon == std::string_view::npos ? std::string_view::npos : colon - at);
        if (group.find('.') != std::string_view::npos) {
            if (colon != std::string_view::npos || !is_ipv4(group)) return false;
            groups += 2;
            break;
        }
        if (group.empty() || group.size() > 4) return false;
        for (char c : group) {
            if (!is_hex(c)) return false;
        }
        ++groups;
        if (colon == std::string_view::npos) break;
        if (colon + 1 < text.size() && text[colon + 1] == ':') {
            if (compressed) return false;
            compressed = true;
            at = colon + 2;
        } else {
            at = colon + 1;
            if (at == text.size()) return false;  // a single trailing ':'
        }
    }
    return compressed ? groups <= 7 : groups == 8;
}

// A DNS host name: labels of 1-63 letters, digits, '-' or '_' (underscores occur in real
// records), at most 253 characters, with an optional trailing dot (a fully qualified name).
// A name whose last label is numeric must be a valid dotted quad: "1.2.3.999" or "127.1" is
// neither a name nor an address anyone means.
constexpr bool is_host_name(std::string_view host) noexcept {
    if (host.size() > 1 && host.back() == '.') host.remove_suffix(1);
    if (host.empty() || host.size() > 253) return false;
    std::size_t label = 0;
    std::size_t last_label = 0;  // start of the last label
    for (std::size_t i = 0; i < host.size(); ++i) {
        const char c = host[i];
        if (c == '.') {
            if (label == 0) return false;
            label = 0;
            last_label = i + 1;
        } else if (is_alnum(c) || c == '-' || c == '_') {
            if (++label > 63) return false;
        } else {
            return false;
        }
    }
    if (label == 0) return false;
    const std::string_view tail = host.substr(last_label);
    const bool numeric_tail = all_digits(tail) || (tail.size() > 1 && tail[0] == '0' &&
                                                   (tail[1] == 'x' || tail[1] == 'X'));
    return !numeric_tail || is_ipv4(host);
}

// RFC 3986 pchar plus '/' and '?' (which path, query and fragment share), without the '%':
// percent-encodings are checked separately.
constexpr bool is_url_char(char c) noexcept {
    return is_alnum(c) || std::string_view("-._~!$&'()*+,;=:@/?").find(c) != std::string_view::npos;
}

}  // namespace detail

class Url {
  public:
    // An empty placeholder (view() is empty), so that structs holding a Url can be built
    // member by member; read<T> never returns one for a required member, and parse() is the only
    // way to a value.
    Url() = default;

    static constexpr std::size_t max_size = 2048;

    // Strict on purpose: the value becomes an HTTP request line and the target of outgoing
    // connections. No user information (credentials in a URL leak into logs), no white space,
    // control or non-ASCII characters (percent-encode them), only RFC 3986 characters in the
    // path and query, and percent signs followed by two hex digits. The scheme is matched
    // ignoring case; everything is stored exactly as sent.
    static Parsed<Url> parse(std::string_view text) {
        if (text.size() > max_size)
            return Problem{codes::length, "must be at most 2048 characters"};
        for (char c : text) {
            const auto byte = static_cast<unsigned char>(c);
            if (byte <= 0x20 || byte >= 0x7F) {
                return Problem{codes::format,
                               "must not contain spaces, control or non-ASCII characters"};
            }
        }
        bool https = false;
        std::size_t at = 0;
        if (detail::iequals_lower(text.substr(0, 7), "http://")) {
            at = 7;
        } else if (detail::iequals_lower(text.substr(0, 8), "https://")) {
            https = true;
            at = 8;
        } else {
            return Problem{codes::format, "must be an absolute http:// or https:// URL"};
        }

        const std::size_t authority_end = std::min(text.find_first_of("/?#", at), text.size());
        const std::string_view authority = text.substr(at, authority_end - at);
        if (authority.find('@') != std::string_view::npos) {
            return Problem{codes::format, "must not contain a user name or password"};
        }

        constexpr Problem bad_host{codes::format, "must have a valid host name or IP address"};
        std::size_t host_pos = at;
        std::size_t host_len = 0;
        std::string_view port_text;
        bool has_port = false;
        if (authority.substr(0, 1) == "[") {
            const std::size_t close = authority.find(']');
            if (close == std::string_view::npos) return bad_host;
            host_pos = at + 1;
            host_len = close - 1;
            if (!detail::is_ipv6(authority.substr(1, host_len))) return bad_host;
            const std::string_view rest = authority.substr(close + 1);
            if (!rest.empty()) {
                if (rest[0] != ':') return bad_host;
                has_port = true;
                port_text = rest.substr(1);
            }
        } else {
            const std::size_t colon = authority.find(':');
            host_len = std::min(colon, authority.size());
            if (!detail::is_host_name(authority.substr(0, host_len))) return bad_host;
            if (colon != std::string_view::npos) {
                has_port = true;
                port_text = authority.substr(colon + 1);
            }
        }

        std::uint16_t port = https ? 443 : 80;
        if (has_port) {
            constexpr std::string_view message = "port must be a number from 1 to 65535";
            if (port_text.empty() || !detail::all_digits(port_text)) {
                return Problem{codes::format, message};
            }
            unsigned long value = 0;
            for (char c : port_text) {
                value = value * 10 + static_cast<unsigned>(c - '0');
                if (value > 65535) return Problem{codes::range, message};
            }
            if (value == 0) return Problem{codes::range, message};
            port = static_cast<std::uint16_t>(value);
        }

        for (std::size_t i = authority_end; i < text.size(); ++i) {
            const char c = text[i];
            if (c == '#' && text.find('#', i + 1) == std::string_view::npos) continue;
            if (c == '%' && i + 2 < text.size() && detail::is_hex(text[i + 1]) &&
                detail::is_hex(text[i + 2])) {
                i += 2;
                continue;
            }
            if (!detail::is_url_char(c)) {
                return Problem{codes::format,
                               "must be a valid URL: percent-encode other characters"};
            }
        }
        return Url(text, https, host_pos, host_len, port, authority_end);
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_; }

    // "http" or "https", lowercase whatever the case of the input.
    [[nodiscard]] std::string_view scheme() const noexcept {
        if (text_.empty()) return {};  // the placeholder
        return https_ ? "https" : "http";
    }

    // The host as sent; an IPv6 address without its brackets.
    [[nodiscard]] std::string_view host() const noexcept {
        return std::string_view(text_).substr(host_pos_, host_len_);
    }

    // The explicit port, or the scheme's default (80, 443).
    [[nodiscard]] std::uint16_t port() const noexcept { return port_; }

    // What goes into the request line: path and query, never the fragment; "/" for an empty path.
    [[nodiscard]] std::string_view target() const noexcept {
        if (!slashed_target_.empty()) return slashed_target_;
        if (text_.empty()) return {};  // the placeholder
        if (target_len_ == 0) return "/";
        return std::string_view(text_).substr(target_pos_, target_len_);
    }

    friend bool operator==(const Url&, const Url&) = default;

  private:
    Url(std::string_view text, bool https, std::size_t host_pos, std::size_t host_len,
        std::uint16_t port, std::size_t target_pos)
        : text_(text),
          host_pos_(host_pos),
          host_len_(host_len),
          target_pos_(target_pos),
          target_len_(std::min(text.find('#', target_pos), text.size()) - target_pos),
          port_(port),
          https_(https) {
        // "http://host?q" has an empty path but a query; the request target must still start
        // with "/", which is not in the text, so that one case keeps its own copy.
        if (target_len_ != 0 && text_[target_pos_] == '?') {
            slashed_target_ = '/';
            slashed_target_ += std::string_view(text_).substr(target_pos_, target_len_);
        }
    }

    std::string text_;
    std::string slashed_target_;
    std::size_t host_pos_ = 0;
    std::size_t host_len_ = 0;
    std::size_t target_pos_ = 0;
    std::size_t target_len_ = 0;
    std::uint16_t port_ = 0;
    bool https_ = false;
};

namespace schema_patterns {

// Url: what Url::parse accepts, http(s) with a host name, dotted quad or bracketed IPv6
// address, an optional port 1-65535, and RFC 3986 characters or percent-encodings after it.
inline std::string url() {
    const std::string h = "[0-9A-Fa-f]{1,4}";
    const std::string dec = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
    const std::string ipv4 = dec + "(?:\\." + dec + "){3}";
    auto repeat = [](const std::string& what, int lo, int hi) {
        return "(?:" + what + "){" + std::to_string(lo) +
               (lo == hi ? "" : "," + std::to_string(hi)) + "}";
    };
    // RFC 4291 2.2: eight groups, or "::" standing for at least one zero group, optionally
    // ending in a dotted quad (two groups).
    std::string ipv6 = "(?:" + repeat(h + ":", 7, 7) + h + "|" + repeat(h + ":", 6, 6) + ipv4;
    for (int left = 0; left <= 7; ++left) {
        const int right = 7 - left;
        ipv6 += '|';
        if (left > 0) ipv6 += (left > 1 ? repeat(h + ":", left - 1, left - 1) : "") + h;
        ipv6 += "::";
        if (right > 0) {
            ipv6 += "(?:" + h + (right > 1 ? repeat(":" + h, 0, right - 1) : "") + ")?";
        }
    }
    for (int left = 0; left <= 5; ++left) {
        ipv6 += '|';
        if (left > 0) ipv6 += (left > 1 ? repeat(h + ":", left - 1, left - 1) : "") + h;
        ipv6 += "::" + repeat(h + ":", 0, 5 - left) + ipv4;
    }
    ipv6 += ')';
    const std::string end = "(?:[:/?#]|$)";
    const std::string label = "[A-Za-z0-9_-]{1,63}";
    // At most 253 characters before an optional final dot; a last label that is all digits or
    // starts with 0x is allowed only in a dotted quad.
    const std::string host_name = "(?=[^:/?#]{1,253}\\.?" + end + ")(?:" + label +
                                  "\\.)*(?![0-9]+\\.?" + end + ")(?!0[xX])" + label + "\\.?";
    const std::string port =
        "0*(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]"
        ")";
    const std::string rest_char = "(?:[-A-Za-z0-9._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})";
    return "^[Hh][Tt][Tt][Pp][Ss]?://(?:\\[" + ipv6 + "\\]|" + ipv4 + "\\.?(?=" + end + ")|" +
           host_name + ")(?::" + port + ")?(?=[/?#]|$)" + rest_char + "*(?:#" + rest_char + "*)?$";
}

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<Url>, Schema& s) {
    s["type"] = "string";
    s["format"] = "uri";
    s["description"] =
        "Absolute http:// or https:// URL without user information; other characters "
        "percent-encoded";
    s["maxLength"] = static_cast<std::int64_t>(Url::max_size);
    s["pattern"] = schema_patterns::url();
    s["examples"].push_back("https://hooks.example.com/calls");
}

}  // namespace collectcall
