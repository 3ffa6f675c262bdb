// Server-side request forgery guard for webhook targets (API.md section 9).
//
// A webhook URL is chosen by the API caller, and the server then connects to it: without a
// guard, a caller could make the server reach its own loopback services, the private network
// or a cloud metadata endpoint. This header classifies addresses and resolves host names to
// the addresses that pass.
//
// The check belongs on the address actually connected to, not on the name: resolve_checked
// returns the checked socket addresses themselves, so the caller connects to exactly what was
// checked, and a DNS answer that changes between check and connect (DNS rebinding) cannot
// slip a private address in. Literal forms that inet_pton refuses but getaddrinfo accepts
// ("127.1", "2130706433", "0x7f.1") are no way around it either: resolve_checked classifies
// what getaddrinfo returns, never the text.
//
// POSIX only (getaddrinfo, inet_pton).
#pragma once

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace collectcall::webhook {

enum class AddressClass {
    public_address,   // globally routable unicast: the only class a webhook may reach by default
    loopback,         // 127.0.0.0/8, ::1
    private_network,  // 10/8, 172.16/12, 192.168/16, fec0::/10 (deprecated site-local)
    link_local,       // 169.254/16, fe80::/10
    cgnat,            // 100.64/10 (carrier-grade NAT, RFC 6598)
    multicast,        // 224/4, ff00::/8
    unspecified,      // 0.0.0.0/8, :: (connecting to 0.0.0.0 reaches the local host on Linux)
    unique_local,     // fc00::/7
    metadata,  // cloud metadata and credential endpoints (169.254.169.254, fd00:ec2::/32, ...)
    reserved,  // everything else that is not global unicast: 240/4 and the broadcast
               // address, documentation and benchmarking ranges, IETF protocol
               // assignments, unallocated IPv6 space, non-IP address families
};

inline constexpr std::string_view describe(AddressClass c) noexcept {
    switch (c) {
        case AddressClass::public_address:
            return "public address";
        case AddressClass::loopback:
            return "loopback address";
        case AddressClass::private_network:
            return "private network address";
        case AddressClass::link_local:
            return "link-local address";
        case AddressClass::cgnat:
            return "carrier-grade NAT address";
        case AddressClass::multicast:
            return "multicast address";
        case AddressClass::unspecified:
            return "unspecified address";
        case AddressClass::unique_local:
            return "unique local IPv6 address";
        case AddressClass::metadata:
            return "cloud metadata address";
        case AddressClass::reserved:
            return "reserved or non-routable address";
    }
    return "unknown address class";
}

// Whether a webhook may not target this class under the default policy.
inline constexpr bool is_refused(AddressClass c) noexcept {
    return c != AddressClass::public_address;
}

// Whether the class is a local network a developer may deliberately target (a receiver on
// the same machine or LAN in tests). Link-local addresses are not: that is where cloud
// metadata and credential services live (169.254.169.254, 169.254.170.2 and .23, Tencent's
// 169.254.0.23, and whatever a provider adds next), and a test receiver never needs one. Metadata,
// unspecified, multicast and reserved addresses are not either: they stay refused even with
// allow_private.
inline constexpr bool is_private_class(AddressClass c) noexcept {
    switch (c) {
        case AddressClass::loopback:
        case AddressClass::private_network:
        case AddressClass::cgnat:
        case AddressClass::unique_local:
            return true;
        default:
            return false;
    }
}

inline constexpr bool is_allowed(AddressClass c, bool allow_private) noexcept {
    return c == AddressClass::public_address || (allow_private && is_private_class(c));
}

namespace detail {

constexpr std::uint32_t ipv4(unsigned a, unsigned b, unsigned c, unsigned d) noexcept {
    return (std::uint32_t{a} << 24) | (std::uint32_t{b} << 16) | (std::uint32_t{c} << 8) |
           std::uint32_t{d};
}

constexpr bool in_prefix(std::uint32_t address, std::uint32_t network, int bits) noexcept {
    const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
    return (address & mask) == network;
}

// `address` in host byte order.
constexpr AddressClass classify_ipv4(std::uint32_t address) noexcept {
    // Metadata and credential endpoints first: they lie inside broader classes but deserve the
    // clearer name. AWS, GCP, Azure, OCI, DigitalOcean, OpenStack and others serve
    // 169.254.169.254; 169.254.170.2 is the ECS task credential endpoint and 169.254.170.23 the
    // EKS Pod Identity agent; 169.254.0.23 is Tencent Cloud's metadata service; 100.100.100.200
    // is Alibaba Cloud's (inside 100.64/10, which allow_private otherwise allows); 192.0.0.192
    // is OCI's older one; 168.63.129.16 is Azure's WireServer, a public-looking address only
    // reachable from inside Azure, where it hands out VM configuration. Every other link-local
    // address is refused as link-local.
    constexpr std::uint32_t metadata[] = {ipv4(169, 254, 169, 254), ipv4(169, 254, 170, 2),
                                          ipv4(169, 254, 170, 23),  ipv4(169, 254, 0, 23),
                                          ipv4(100, 100, 100, 200), ipv4(192, 0, 0, 192),
                                          ipv4(168, 63, 129, 16)};
    for (std::uint32_t m : metadata) {
        if (address == m) return AddressClass::metadata;
    }
    if (in_prefix(address, ipv4(0, 0, 0, 0), 8)) return AddressClass::unspecified;
    if (in_prefix(address, ipv4(127, 0, 0, 0), 8)) return AddressClass::loopback;
    if (in_prefix(address, ipv4(10, 0, 0, 0), 8) || in_prefix(address, ipv4(172, 16, 0, 0), 12) ||
        in_prefix(address, ipv4(192, 168, 0, 0), 16)) {
        return AddressClass::private_network;
    }
    if (in_prefix(address, ipv4(100, 64, 0, 0), 10)) return AddressClass::cgnat;
    if (in_prefix(address, ipv4(169, 254, 0, 0), 16)) return AddressClass::link_local;
    if (in_prefix(address, ipv4(224, 0, 0, 0), 4)) return AddressClass::multicast;
    // 240/4 holds 255.255.255.255 (limited broadcast); the rest are the IANA special-purpose
    // blocks that are not globally reachable unicast (RFC 6890 and successors).
    if (in_prefix(address, ipv4(240, 0, 0, 0), 4) || in_prefix(address, ipv4(192, 0, 0, 0), 24) ||
        in_prefix(address, ipv4(192, 0, 2, 0), 24) ||
        in_prefix(address, ipv4(192, 88, 99, 0), 24) ||
        in_prefix(address, ipv4(198, 18, 0, 0), 15) ||
        in_prefix(address, ipv4(198, 51, 100, 0), 24) ||
        in_prefix(address, ipv4(203, 0, 113, 0), 24)) {
        return AddressClass::reserved;
    }
    return AddressClass::public_address;
}

constexpr std::uint32_t ipv4_at(const std::uint8_t* b) noexcept {
    return ipv4(b[0], b[1], b[2], b[3]);
}

constexpr bool all_zero(const std::uint8_t* b, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
        if (b[i] != 0) return false;
    }
    return true;
}

// The 16 bytes of an IPv6 address in network order.
constexpr AddressClass classify_ipv6(const std::array<std::uint8_t, 16>& a) noexcept {
    const std::uint8_t* b = a.data();
    if (all_zero(b, 16)) return AddressClass::unspecified;
    if (all_zero(b, 15) && b[15] == 1) return AddressClass::loopback;

    // IPv4-mapped ::ffff:a.b.c.d: a dual-stack socket connects to the IPv4 address itself.
    if (all_zero(b, 10) && b[10] == 0xff && b[11] == 0xff) return classify_ipv4(ipv4_at(b + 12));
    // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291): no longer routed anywhere, so it is
    // reserved, but a refused embedded address keeps its own, more telling, class.
    if (all_zero(b, 12)) {
        const AddressClass embedded = classify_ipv4(ipv4_at(b + 12));
        return embedded == AddressClass::public_address ? AddressClass::reserved : embedded;
    }
    // NAT64 well-known prefix 64:ff9b::/96 and 6to4 2002::/16 carry an IPv4 address that a
    // translator or relay will reach on the sender's behalf: judge them by that address.
    constexpr std::uint8_t nat64[12] = {0x00, 0x64, 0xff, 0x9b};
    if (std::equal(b, b + 12, nat64)) return classify_ipv4(ipv4_at(b + 12));
    if (b[0] == 0x20 && b[1] == 0x02) return classify_ipv4(ipv4_at(b + 2));

    // Metadata and credential ranges: fd00:ec2::/32 is AWS's block for the instance services
    // (IMDS fd00:ec2::254, the EKS Pod Identity agent fd00:ec2::23, the DNS resolver
    // fd00:ec2::253, Time Sync fd00:ec2::123), inside fc00::/7, which allow_private otherwise
    // allows; fd20:ce::254 is GCP's metadata server over IPv6.
    constexpr std::uint8_t gcp_metadata[16] = {0xfd, 0x20, 0x00, 0xce, 0, 0, 0,    0,
                                               0,    0,    0,    0,    0, 0, 0x02, 0x54};
    if ((b[0] == 0xfd && b[1] == 0x00 && b[2] == 0x0e && b[3] == 0xc2) ||
        std::equal(b, b + 16, gcp_metadata)) {
        return AddressClass::metadata;
    }

    if (b[0] == 0xff) return AddressClass::multicast;
    if ((b[0] & 0xfe) == 0xfc) return AddressClass::unique_local;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return AddressClass::link_local;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) return AddressClass::private_network;

    // Inside global unicast 2000::/3, the special-purpose blocks that are not reachable
    // destinations: 2001::/23 (IETF protocol assignments, Teredo 2001::/32, ORCHID),
    // 2001:db8::/32 and 3fff::/20 (documentation).
    if (b[0] == 0x20 && b[1] == 0x01 && (b[2] & 0xfe) == 0x00) return AddressClass::reserved;
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) {
        return AddressClass::reserved;
    }
    if (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0x00) return AddressClass::reserved;
    if ((b[0] & 0xe0) == 0x20) return AddressClass::public_address;
    // Outside 2000::/3 nothing is allocated for global unicast (this covers 100::/64 discard,
    // 64:ff9b:1::/48 local-use NAT64 and the unallocated space).
    return AddressClass::reserved;
}

}  // namespace detail

inline AddressClass classify(const in_addr& address) noexcept {
    return detail::classify_ipv4(ntohl(address.s_addr));
}

inline AddressClass classify(const in6_addr& address) noexcept {
    std::array<std::uint8_t, 16> bytes{};
    std::memcpy(bytes.data(), &address, bytes.size());
    return detail::classify_ipv6(bytes);
}

// A socket address of family AF_INET or AF_INET6; anything else (or null) is reserved, so an
// unexpected family is refused rather than let through.
// Not inlined: inlined into a caller that passes a sockaddr_in, GCC 12 -O2 reports the
// (unreachable) AF_INET6 branch as reading past the object (-Warray-bounds).
[[gnu::noinline]] inline AddressClass classify(const sockaddr* address) noexcept {
    if (address == nullptr) return AddressClass::reserved;
    if (address->sa_family == AF_INET) {
        return classify(reinterpret_cast<const sockaddr_in*>(address)->sin_addr);
    }
    if (address->sa_family == AF_INET6) {
        return classify(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr);
    }
    return AddressClass::reserved;
}

// An IP address literal in its standard text form: dotted-quad IPv4 (four decimal parts, no
// leading zeros), or IPv6 optionally in URL brackets ("[::1]") and with a zone ("fe80::1%eth0",
// classified without the zone). nullopt when the text is not such a literal: it is then a
// host name (or an obsolete IPv4 form such as "127.1") and must go through resolve_checked.
inline std::optional<AddressClass> classify(std::string_view literal) noexcept {
    bool bracketed = false;
    if (literal.size() >= 2 && literal.front() == '[' && literal.back() == ']') {
        literal = literal.substr(1, literal.size() - 2);
        bracketed = true;
    }
    std::array<char, INET6_ADDRSTRLEN + 1> text{};
    // A NUL would end the text inet_pton sees and let "127.0.0.1\0junk" pass as a literal.
    if (literal.empty() || literal.size() >= text.size() ||
        literal.find('\0') != std::string_view::npos) {
        return std::nullopt;
    }
    std::copy(literal.begin(), literal.end(), text.begin());  // NUL-terminated by text{}
    if (!bracketed) {
        in_addr v4{};
        if (inet_pton(AF_INET, text.data(), &v4) == 1) return classify(v4);
    }
    if (const auto zone = literal.find('%'); zone != std::string_view::npos) {
        if (zone == 0 || zone + 1 == literal.size()) return std::nullopt;
        text[zone] = '\0';
    }
    in6_addr v6{};
    if (inet_pton(AF_INET6, text.data(), &v6) == 1) return classify(v6);
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Resolution

// One address getaddrinfo returned, with its class; `address()` and `length` go straight to
// socket(family(), ...) and connect().
struct ResolvedAddress {
    sockaddr_storage storage{};
    socklen_t length = 0;
    AddressClass address_class = AddressClass::reserved;

    [[nodiscard]] const sockaddr* address() const noexcept {
        return reinterpret_cast<const sockaddr*>(&storage);
    }
    [[nodiscard]] int family() const noexcept { return storage.ss_family; }

    // The address without port: "93.184.216.34", "2606:4700::1".
    [[nodiscard]] std::string to_string() const {
        std::array<char, INET6_ADDRSTRLEN> text{};
        const auto size = static_cast<socklen_t>(text.size());
        const char* written = nullptr;
        if (storage.ss_family == AF_INET) {
            sockaddr_in v4{};
            std::memcpy(&v4, &storage, sizeof v4);
            written = inet_ntop(AF_INET, &v4.sin_addr, text.data(), size);
        } else if (storage.ss_family == AF_INET6) {
            sockaddr_in6 v6{};
            std::memcpy(&v6, &storage, sizeof v6);
            written = inet_ntop(AF_INET6, &v6.sin6_addr, text.data(), size);
        }
        return written != nullptr ? std::string(written) : std::string("?");
    }
};

enum class ResolveStatus {
    ok,                 // `addresses` holds at least one allowed address
    invalid_host,       // empty, too long, NUL inside, or malformed brackets
    does_not_resolve,   // the name has no address (NXDOMAIN, no A/AAAA record)
    temporary_failure,  // the resolver could not answer now (EAI_AGAIN, out of memory, ...)
    refused,            // every address the name has is of a refused class
    timed_out,          // no answer within the lookup's time limit (resolver.hpp)
};

inline constexpr std::string_view describe(ResolveStatus s) noexcept {
    switch (s) {
        case ResolveStatus::ok:
            return "resolved";
        case ResolveStatus::invalid_host:
            return "invalid host name";
        case ResolveStatus::does_not_resolve:
            return "host does not resolve";
        case ResolveStatus::temporary_failure:
            return "host name resolution failed temporarily";
        case ResolveStatus::refused:
            return "host resolves only to refused addresses";
        case ResolveStatus::timed_out:
            return "host does not resolve in time";
    }
    return "unknown resolution status";
}

struct Resolution {
    ResolveStatus status = ResolveStatus::invalid_host;
    // The allowed addresses, in the resolver's order, each carrying the port: connect only to
    // these. Empty unless status is ok.
    std::vector<ResolvedAddress> addresses;
    // The addresses left out, with their class: for logs only.
    std::vector<ResolvedAddress> refused;
    // A sentence for a client that names the rule, never an address: an internal host name's
    // addresses are none of the caller's business, e.g. "host resolves to a loopback address,
    // which a webhook may not target".
    std::string message;

    [[nodiscard]] bool ok() const noexcept { return status == ResolveStatus::ok; }
    explicit operator bool() const noexcept { return ok(); }
    // The class that refused the first left-out address; meaningful when status is refused.
    [[nodiscard]] AddressClass refused_class() const noexcept {
        return refused.empty() ? AddressClass::reserved : refused.front().address_class;
    }
};

namespace detail {

inline Resolution resolution_failure(ResolveStatus status, std::string_view detail = {}) {
    Resolution result;
    result.status = status;
    result.message = std::string(describe(status));
    if (!detail.empty()) {
        result.message += ": ";
        result.message += detail;
    }
    return result;
}

// The host as getaddrinfo takes it (an IPv6 literal without brackets); nullopt when it is no
// host at all.
inline std::optional<std::string> lookup_name(std::string_view host) {
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
        if (host.find(':') == std::string_view::npos) return std::nullopt;
    }
    // 253 is the longest DNS name; a NUL would silently cut the name getaddrinfo sees.
    if (host.empty() || host.size() > 253 || host.find('\0') != std::string_view::npos ||
        host.find_first_of("[]") != std::string_view::npos) {
        return std::nullopt;
    }
    return std::string(host);
}

inline addrinfo lookup_hints(int flags) noexcept {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_protocol = IPPROTO_TCP;
    // No AI_ADDRCONFIG: in a container whose only interface is loopback it makes glibc
    // answer nothing even for "localhost".
    hints.ai_flags = AI_NUMERICSERV | flags;
    return hints;
}

inline Resolution lookup_failure(int rc) {
    bool permanent = rc == EAI_NONAME || rc == EAI_FAIL || rc == EAI_FAMILY;
#ifdef EAI_NODATA
    permanent = permanent || rc == EAI_NODATA;
#endif
    return resolution_failure(
        permanent ? ResolveStatus::does_not_resolve : ResolveStatus::temporary_failure,
        gai_strerror(rc));
}

// "a loopback address", "an unspecified address".
inline std::string with_article(AddressClass c) {
    const std::string_view text = describe(c);
    const bool vowel = text.starts_with("unspecified");
    return std::string(vowel ? "an " : "a ") + std::string(text);
}

}  // namespace detail

// Sorts what getaddrinfo returned into allowed and refused addresses (is_allowed(class,
// allow_private)), without duplicates. ok when any address is allowed.
inline Resolution check_addresses(const addrinfo* list, bool allow_private) {
    Resolution result;
    for (const addrinfo* ai = list; ai != nullptr; ai = ai->ai_next) {
        if (ai->ai_addr == nullptr || ai->ai_addrlen == 0 ||
            ai->ai_addrlen > sizeof(sockaddr_storage)) {
            continue;
        }
        ResolvedAddress entry;
        std::memcpy(&entry.storage, ai->ai_addr, ai->ai_addrlen);
        entry.length = ai->ai_addrlen;
        entry.address_class = classify(ai->ai_addr);
        auto& bucket =
            is_allowed(entry.address_class, allow_private) ? result.addresses : result.refused;
        const bool duplicate = std::any_of(bucket.begin(), bucket.end(), [&](const auto& seen) {
            return seen.length == entry.length &&
                   std::memcmp(&seen.storage, &entry.storage, entry.length) == 0;
        });
        if (!duplicate) bucket.push_back(entry);
    }

    if (!result.addresses.empty()) {
        result.status = ResolveStatus::ok;
        result.message = std::string(describe(ResolveStatus::ok));
        return result;
    }
    if (result.refused.empty()) return detail::resolution_failure(ResolveStatus::does_not_resolve);
    // The rule that refused each address, each class once; never the addresses themselves.
    std::vector<AddressClass> classes;
    for (const auto& r : result.refused) {
        if (std::find(classes.begin(), classes.end(), r.address_class) == classes.end()) {
            classes.push_back(r.address_class);
        }
    }
    result.status = ResolveStatus::refused;
    result.message = "host resolves to ";
    for (std::size_t i = 0; i < classes.size(); ++i) {
        if (i != 0) result.message += i + 1 == classes.size() ? " and " : ", ";
        result.message += detail::with_article(classes[i]);
    }
    result.message += ", which a webhook may not target";
    return result;
}

// Resolves `host` (a name, an IPv4 literal, or an IPv6 literal with or without brackets) for
// TCP to `port`, and keeps the addresses that is_allowed(class, allow_private) accepts.
//
// A name with some allowed and some refused addresses resolves to the allowed ones only:
// the caller never connects anywhere else, so the refused ones cannot be reached through it.
// Blocks while the system resolver works (getaddrinfo has no timeout of its own): resolver.hpp
// bounds it.
inline Resolution resolve_checked(std::string_view host, std::uint16_t port,
                                  bool allow_private = false) {
    const std::optional<std::string> name = detail::lookup_name(host);
    if (!name) return detail::resolution_failure(ResolveStatus::invalid_host);
    const addrinfo hints = detail::lookup_hints(0);
    const std::string service = std::to_string(port);
    addrinfo* raw = nullptr;
    const int rc = getaddrinfo(name->c_str(), service.c_str(), &hints, &raw);
    const std::unique_ptr<addrinfo, void (*)(addrinfo*)> list(raw, freeaddrinfo);
    if (rc != 0) return detail::lookup_failure(rc);
    return check_addresses(list.get(), allow_private);
}

}  // namespace collectcall::webhook
