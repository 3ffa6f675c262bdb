#include <collectcall/webhook/address_guard.hpp>

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace wh = collectcall::webhook;
using wh::AddressClass;

namespace {

AddressClass literal(std::string_view text) {
    const auto c = wh::classify(text);
    INFO(text);
    REQUIRE(c.has_value());
    return *c;
}

}  // namespace

TEST_CASE("IPv4 literals by class", "[webhook][address_guard]") {
    const std::pair<std::string_view, AddressClass> cases[] = {
        {"93.184.216.34", AddressClass::public_address},
        {"8.8.8.8", AddressClass::public_address},
        {"1.1.1.1", AddressClass::public_address},
        {"172.15.255.255", AddressClass::public_address},
        {"172.32.0.0", AddressClass::public_address},
        {"100.63.255.255", AddressClass::public_address},
        {"100.128.0.0", AddressClass::public_address},
        {"223.255.255.255", AddressClass::public_address},
        {"127.0.0.1", AddressClass::loopback},
        {"127.255.255.254", AddressClass::loopback},
        {"10.0.0.1", AddressClass::private_network},
        {"10.255.255.255", AddressClass::private_network},
        {"172.16.0.1", AddressClass::private_network},
        {"172.31.255.255", AddressClass::private_network},
        {"192.168.1.1", AddressClass::private_network},
        {"169.254.0.1", AddressClass::link_local},
        {"169.254.255.255", AddressClass::link_local},
        {"100.64.0.1", AddressClass::cgnat},
        {"100.127.255.255", AddressClass::cgnat},
        {"224.0.0.1", AddressClass::multicast},
        {"239.255.255.250", AddressClass::multicast},
        {"0.0.0.0", AddressClass::unspecified},
        {"0.1.2.3", AddressClass::unspecified},
        {"255.255.255.255", AddressClass::reserved},  // limited broadcast
        {"240.0.0.1", AddressClass::reserved},
        {"192.0.2.1", AddressClass::reserved},
        {"198.51.100.7", AddressClass::reserved},
        {"203.0.113.9", AddressClass::reserved},
        {"198.18.0.1", AddressClass::reserved},
        {"192.0.0.8", AddressClass::reserved},
        {"169.254.169.254", AddressClass::metadata},
        {"169.254.170.2", AddressClass::metadata},
        {"169.254.170.23", AddressClass::metadata},
        {"169.254.0.23", AddressClass::metadata},
        {"100.100.100.200", AddressClass::metadata},
        {"168.63.129.16", AddressClass::metadata},
    };
    for (auto [text, expected] : cases) {
        INFO(text);
        CHECK(literal(text) == expected);
        CHECK(wh::is_refused(expected) == (expected != AddressClass::public_address));
    }
}

TEST_CASE("IPv6 literals by class", "[webhook][address_guard]") {
    const std::pair<std::string_view, AddressClass> cases[] = {
        {"2606:4700::1", AddressClass::public_address},
        {"2001:4860:4860::8888", AddressClass::public_address},
        {"[2606:4700::1]", AddressClass::public_address},
        {"::1", AddressClass::loopback},
        {"[::1]", AddressClass::loopback},
        {"0:0:0:0:0:0:0:1", AddressClass::loopback},
        {"::", AddressClass::unspecified},
        {"fe80::1", AddressClass::link_local},
        {"febf:ffff::1", AddressClass::link_local},
        {"fe80::1%eth0", AddressClass::link_local},
        {"[fe80::1%25eth0]", AddressClass::link_local},
        {"fec0::1", AddressClass::private_network},
        {"fc00::1", AddressClass::unique_local},
        {"fd12:3456:789a::1", AddressClass::unique_local},
        {"ff02::1", AddressClass::multicast},
        {"ff05::1:3", AddressClass::multicast},
        {"fd00:ec2::254", AddressClass::metadata},
        {"fd00:ec2::23", AddressClass::metadata},
        {"fd00:ec2:ffff::1", AddressClass::metadata},
        {"fd20:ce::254", AddressClass::metadata},
        {"fd00:ec3::1", AddressClass::unique_local},
        {"2001:db8::1", AddressClass::reserved},
        {"2001::1", AddressClass::reserved},  // Teredo
        {"3fff::1", AddressClass::reserved},
        {"100::1", AddressClass::reserved},
        {"4000::1", AddressClass::reserved},  // outside 2000::/3
        // IPv4 embedded in IPv6 is judged by the IPv4 address.
        {"::ffff:127.0.0.1", AddressClass::loopback},
        {"::ffff:7f00:1", AddressClass::loopback},
        {"::ffff:10.1.2.3", AddressClass::private_network},
        {"::ffff:169.254.169.254", AddressClass::metadata},
        {"::ffff:0.0.0.0", AddressClass::unspecified},
        {"::ffff:93.184.216.34", AddressClass::public_address},
        {"[::ffff:192.168.0.1]", AddressClass::private_network},
        {"::127.0.0.1", AddressClass::loopback},  // IPv4-compatible (deprecated)
        {"::10.0.0.1", AddressClass::private_network},
        {"::8.8.8.8", AddressClass::reserved},           // compatible form is not routed
        {"64:ff9b::127.0.0.1", AddressClass::loopback},  // NAT64
        {"64:ff9b::a9fe:a9fe", AddressClass::metadata},
        {"64:ff9b::8.8.8.8", AddressClass::public_address},
        {"64:ff9b:1::1", AddressClass::reserved},              // local-use NAT64
        {"2002:c0a8:0101::1", AddressClass::private_network},  // 6to4 of 192.168.1.1
        {"2002:7f00:1::", AddressClass::loopback},
        {"2002:5db8:d822::1", AddressClass::public_address},  // 6to4 of 93.184.216.34
    };
    for (auto [text, expected] : cases) {
        INFO(text);
        CHECK(literal(text) == expected);
    }
}

TEST_CASE("non-literals are not classified", "[webhook][address_guard]") {
    for (std::string_view text :
         {"",
          "localhost",
          "example.com",
          "127.1",
          "2130706433",
          "0x7f.0.0.1",
          "127.000.0.1",
          "010.0.0.1",
          "1.2.3.4.5",
          "256.0.0.1",
          " 127.0.0.1",
          "127.0.0.1 ",
          "[127.0.0.1]",
          "[::1",
          "::1]",
          "[]",
          "%eth0",
          "fe80::1%",
          "::ffff:1.2.3",
          ":::1",
          "1111:2222:3333:4444:5555:6666:7777:8888:9999:aaaa:bbbb:cccc:dddd"}) {
        INFO(text);
        CHECK_FALSE(wh::classify(text).has_value());
    }
    CHECK_FALSE(wh::classify(std::string_view("127.0.0.1\0", 10)).has_value());
}

TEST_CASE("classify socket addresses", "[webhook][address_guard]") {
    sockaddr_in v4{};
    v4.sin_family = AF_INET;
    REQUIRE(inet_pton(AF_INET, "192.168.0.10", &v4.sin_addr) == 1);
    CHECK(wh::classify(reinterpret_cast<const sockaddr*>(&v4)) == AddressClass::private_network);
    CHECK(wh::classify(v4.sin_addr) == AddressClass::private_network);

    sockaddr_in6 v6{};
    v6.sin6_family = AF_INET6;
    REQUIRE(inet_pton(AF_INET6, "2606:4700::1", &v6.sin6_addr) == 1);
    CHECK(wh::classify(reinterpret_cast<const sockaddr*>(&v6)) == AddressClass::public_address);
    CHECK(wh::classify(v6.sin6_addr) == AddressClass::public_address);
    CHECK(wh::classify(in6addr_loopback) == AddressClass::loopback);

    sockaddr_un unix_address{};
    unix_address.sun_family = AF_UNIX;
    CHECK(wh::classify(reinterpret_cast<const sockaddr*>(&unix_address)) == AddressClass::reserved);
    CHECK(wh::classify(static_cast<const sockaddr*>(nullptr)) == AddressClass::reserved);
}

TEST_CASE("policy", "[webhook][address_guard]") {
    const AddressClass all[] = {
        AddressClass::public_address, AddressClass::loopback,     AddressClass::private_network,
        AddressClass::link_local,     AddressClass::cgnat,        AddressClass::multicast,
        AddressClass::unspecified,    AddressClass::unique_local, AddressClass::metadata,
        AddressClass::reserved,
    };
    for (AddressClass c : all) {
        INFO(wh::describe(c));
        CHECK_FALSE(wh::describe(c).empty());
        CHECK(wh::is_allowed(c, false) == !wh::is_refused(c));
    }
    CHECK(wh::is_allowed(AddressClass::public_address, false));
    CHECK(wh::is_allowed(AddressClass::loopback, true));
    CHECK(wh::is_allowed(AddressClass::private_network, true));
    CHECK(wh::is_allowed(AddressClass::cgnat, true));
    CHECK(wh::is_allowed(AddressClass::unique_local, true));
    // Never reachable on purpose, even for local testing.
    CHECK_FALSE(wh::is_allowed(AddressClass::link_local, true));
    CHECK_FALSE(wh::is_allowed(AddressClass::metadata, true));
    CHECK_FALSE(wh::is_allowed(AddressClass::unspecified, true));
    CHECK_FALSE(wh::is_allowed(AddressClass::multicast, true));
    CHECK_FALSE(wh::is_allowed(AddressClass::reserved, true));
}

TEST_CASE("allow_private allows loopback and private networks, never link-local or metadata",
          "[webhook][address_guard]") {
    // Host, whether allow_private lets a webhook reach it, and the rule a refusal names.
    struct Case {
        std::string_view host;
        bool allowed;
        AddressClass rule;
    };
    const Case cases[] = {
        {"127.0.0.1", true, AddressClass::loopback},
        {"127.45.6.7", true, AddressClass::loopback},
        {"[::1]", true, AddressClass::loopback},
        {"10.0.0.8", true, AddressClass::private_network},
        {"172.16.4.4", true, AddressClass::private_network},
        {"192.168.1.20", true, AddressClass::private_network},
        {"[fd12:3456::1]", true, AddressClass::unique_local},
        {"100.64.0.1", true, AddressClass::cgnat},
        // Cloud metadata and credential services.
        {"169.254.169.254", false, AddressClass::metadata},
        {"169.254.170.2", false, AddressClass::metadata},
        {"169.254.170.23", false, AddressClass::metadata},   // EKS Pod Identity agent
        {"169.254.0.23", false, AddressClass::metadata},     // Tencent Cloud
        {"100.100.100.200", false, AddressClass::metadata},  // Alibaba Cloud
        {"168.63.129.16", false, AddressClass::metadata},    // Azure WireServer
        {"[fd00:ec2::23]", false, AddressClass::metadata},   // EKS Pod Identity agent
        {"[fd00:ec2::254]", false, AddressClass::metadata},  // AWS IMDS
        {"[fd00:ec2:1::7]", false, AddressClass::metadata},  // the rest of AWS's block
        {"[fd20:ce::254]", false, AddressClass::metadata},   // GCP
        {"[::ffff:169.254.170.23]", false, AddressClass::metadata},
        // The rest of link-local.
        {"169.254.0.1", false, AddressClass::link_local},
        {"169.254.42.42", false, AddressClass::link_local},
        {"[fe80::1]", false, AddressClass::link_local},
        {"[::ffff:169.254.1.1]", false, AddressClass::link_local},
        {"[64:ff9b::a9fe:101]", false, AddressClass::link_local},  // NAT64 of 169.254.1.1
    };
    for (const Case& c : cases) {
        INFO(c.host);
        const auto r = wh::resolve_checked(c.host, 80, true);
        CHECK(r.ok() == c.allowed);
        if (c.allowed) {
            REQUIRE_FALSE(r.addresses.empty());
            CHECK(r.addresses.front().address_class == c.rule);
        } else {
            CHECK(r.status == wh::ResolveStatus::refused);
            CHECK(r.refused_class() == c.rule);
            // The message names the rule, never the address.
            CHECK(r.message.find(wh::describe(c.rule)) != std::string::npos);
            std::string_view bare = c.host;
            if (bare.front() == '[') bare = bare.substr(1, bare.size() - 2);
            CHECK(r.message.find(bare) == std::string::npos);
        }
        // Without allow_private every one of them is refused.
        CHECK_FALSE(wh::resolve_checked(c.host, 80, false).ok());
    }
}

TEST_CASE("resolve_checked on literals (no DNS)", "[webhook][address_guard]") {
    SECTION("public IPv4 literal passes, with the port set") {
        const auto r = wh::resolve_checked("93.184.216.34", 443);
        REQUIRE(r.ok());
        REQUIRE(r.addresses.size() == 1);
        const auto& a = r.addresses.front();
        CHECK(a.family() == AF_INET);
        CHECK(a.address_class == AddressClass::public_address);
        CHECK(a.to_string() == "93.184.216.34");
        CHECK(a.length == sizeof(sockaddr_in));
        sockaddr_in sin{};
        std::memcpy(&sin, a.address(), sizeof sin);
        CHECK(ntohs(sin.sin_port) == 443);
        CHECK(r.refused.empty());
    }
    SECTION("public IPv6 literal, bracketed or not") {
        for (std::string_view host : {"2606:4700::1", "[2606:4700::1]"}) {
            const auto r = wh::resolve_checked(host, 8443);
            REQUIRE(r.ok());
            REQUIRE(r.addresses.size() == 1);
            CHECK(r.addresses.front().family() == AF_INET6);
            CHECK(r.addresses.front().to_string() == "2606:4700::1");
            sockaddr_in6 sin6{};
            std::memcpy(&sin6, r.addresses.front().address(), sizeof sin6);
            CHECK(ntohs(sin6.sin6_port) == 8443);
        }
    }
    SECTION("refused literals carry their class") {
        const std::pair<std::string_view, AddressClass> cases[] = {
            {"169.254.169.254", AddressClass::metadata},
            {"10.1.2.3", AddressClass::private_network},
            {"[::ffff:127.0.0.1]", AddressClass::loopback},
            {"fd00:ec2::254", AddressClass::metadata},
            // Obsolete IPv4 spellings that getaddrinfo accepts are judged by the address.
            {"127.1", AddressClass::loopback},
            {"2130706433", AddressClass::loopback},
        };
        for (auto [host, expected] : cases) {
            INFO(host);
            const auto r = wh::resolve_checked(host, 80);
            CHECK(r.status == wh::ResolveStatus::refused);
            CHECK_FALSE(r);
            CHECK(r.addresses.empty());
            CHECK(r.refused_class() == expected);
            CHECK(r.message.find(wh::describe(expected)) != std::string::npos);
        }
    }
    SECTION("metadata stays refused with allow_private") {
        const auto r = wh::resolve_checked("169.254.169.254", 80, true);
        CHECK(r.status == wh::ResolveStatus::refused);
        CHECK(r.refused_class() == AddressClass::metadata);
    }
    SECTION("private literal allowed with allow_private") {
        const auto r = wh::resolve_checked("192.168.1.20", 8080, true);
        REQUIRE(r.ok());
        CHECK(r.addresses.front().address_class == AddressClass::private_network);
    }
    SECTION("invalid hosts") {
        for (std::string_view host :
             {std::string_view(""), std::string_view("[]"), std::string_view("[127.0.0.1]"),
              std::string_view("a[b"), std::string_view("evil\0.example.com", 17)}) {
            INFO(host);
            const auto r = wh::resolve_checked(host, 80);
            CHECK(r.status == wh::ResolveStatus::invalid_host);
            CHECK(r.addresses.empty());
        }
        CHECK(wh::resolve_checked(std::string(254, 'a'), 80).status ==
              wh::ResolveStatus::invalid_host);
    }
}

TEST_CASE("resolve_checked on localhost", "[webhook][address_guard]") {
    const auto refused = wh::resolve_checked("localhost", 8080);
    CHECK(refused.status == wh::ResolveStatus::refused);
    CHECK(refused.addresses.empty());
    REQUIRE_FALSE(refused.refused.empty());
    for (const auto& a : refused.refused) {
        INFO(a.to_string());
        CHECK(a.address_class == AddressClass::loopback);
    }
    CHECK(refused.refused_class() == AddressClass::loopback);
    // The rule that refused it, never the addresses an internal name resolves to.
    CHECK(refused.message == "host resolves to a loopback address, which a webhook may not target");
    for (const auto& a : refused.refused) {
        CHECK(refused.message.find(a.to_string()) == std::string::npos);
    }

    const auto allowed = wh::resolve_checked("localhost", 8080, true);
    REQUIRE(allowed.ok());
    CHECK(allowed.refused.empty());
    for (const auto& a : allowed.addresses) {
        INFO(a.to_string());
        CHECK(a.address_class == AddressClass::loopback);
        CHECK((a.family() == AF_INET || a.family() == AF_INET6));
    }
}
