#include <collectcall/types/url.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

using namespace std::literals;
using collectcall::Url;

TEST_CASE("Url splits an http(s) URL into scheme, host, port and target", "[types][url]") {
    using row = std::tuple<std::string_view, std::string_view, std::string_view, std::uint16_t,
                           std::string_view>;
    const auto [text, scheme, host, port,
                target] = GENERATE(table<std::string_view, std::string_view, std::string_view,
                                         std::uint16_t, std::string_view>({
        row{"https://example.com", "https", "example.com", 443, "/"},
        row{"http://example.com", "http", "example.com", 80, "/"},
        row{"https://example.com/", "https", "example.com", 443, "/"},
        row{"http://example.com/hooks?x=1", "http", "example.com", 80, "/hooks?x=1"},
        row{"https://example.com:8443/a/b", "https", "example.com", 8443, "/a/b"},
        row{"HTTPS://Example.COM/Path", "https", "Example.COM", 443, "/Path"},
        row{"Http://example.com", "http", "example.com", 80, "/"},
        row{"http://127.0.0.1:8080/cb", "http", "127.0.0.1", 8080, "/cb"},
        row{"http://0.0.0.0/", "http", "0.0.0.0", 80, "/"},
        row{"http://255.255.255.255/", "http", "255.255.255.255", 80, "/"},
        row{"http://[::1]:9000/cb", "http", "::1", 9000, "/cb"},
        row{"http://[::1]", "http", "::1", 80, "/"},
        row{"https://[2001:db8::1]/", "https", "2001:db8::1", 443, "/"},
        row{"https://[2001:DB8:0:0:0:0:0:1]/", "https", "2001:DB8:0:0:0:0:0:1", 443, "/"},
        row{"https://[1:2:3:4:5:6:7::]/", "https", "1:2:3:4:5:6:7::", 443, "/"},
        row{"https://[::]/", "https", "::", 443, "/"},
        row{"https://[::ffff:192.0.2.1]/", "https", "::ffff:192.0.2.1", 443, "/"},
        row{"https://[1:2:3:4:5:6:1.2.3.4]/", "https", "1:2:3:4:5:6:1.2.3.4", 443, "/"},
        row{"https://example.com/cb#frag", "https", "example.com", 443, "/cb"},
        row{"https://example.com#frag", "https", "example.com", 443, "/"},
        row{"https://example.com?x=1", "https", "example.com", 443, "/?x=1"},
        row{"https://example.com?x=1#f", "https", "example.com", 443, "/?x=1"},
        row{"https://example.com:443?x", "https", "example.com", 443, "/?x"},
        row{"https://example.com/a%20b?q=%C3%A9", "https", "example.com", 443, "/a%20b?q=%C3%A9"},
        row{"https://example.com/p?q=a:b@c/d?e&f=g;h", "https", "example.com", 443,
            "/p?q=a:b@c/d?e&f=g;h"},
        row{"https://example.com/~user/it's(1)*!$,+=", "https", "example.com", 443,
            "/~user/it's(1)*!$,+="},
        row{"https://example.com./x", "https", "example.com.", 443, "/x"},
        row{"https://my_host.internal/x", "https", "my_host.internal", 443, "/x"},
        row{"http://localhost:3000", "http", "localhost", 3000, "/"},
        row{"https://example.com:1/", "https", "example.com", 1, "/"},
        row{"https://example.com:65535/", "https", "example.com", 65535, "/"},
        row{"https://example.com:080/", "https", "example.com", 80, "/"},
        row{"https://123.example/", "https", "123.example", 443, "/"},
    }));
    INFO(text);
    const auto parsed = Url::parse(text);
    REQUIRE(parsed.ok());
    const Url& url = parsed.value();
    CHECK(url.view() == text);
    CHECK(url.scheme() == scheme);
    CHECK(url.host() == host);
    CHECK(url.port() == port);
    CHECK(url.target() == target);

    // The parts must survive copies and moves (they are offsets, not pointers).
    Url copy = url;
    CHECK(copy == url);
    CHECK(copy.host() == host);
    CHECK(copy.target() == target);
    Url moved = std::move(copy);
    CHECK(moved.host() == host);
    CHECK(moved.target() == target);
}

TEST_CASE("Url rejects what is not an absolute http(s) URL with a usable host", "[types][url]") {
    using row = std::tuple<std::string, std::string_view>;
    const auto [text, code] = GENERATE(table<std::string, std::string_view>({
        row{"", "format"},
        row{"example.com", "format"},
        row{"//example.com", "format"},
        row{"ftp://example.com", "format"},
        row{"file:///etc/passwd", "format"},
        row{"javascript:alert(1)", "format"},
        row{"https:/example.com", "format"},
        row{"https:example.com", "format"},
        row{"https://", "format"},
        row{"https:///path", "format"},
        row{"https://?q", "format"},
        row{"https://:443/", "format"},
        row{"https://user:pw@example.com/", "format"},
        row{"https://user@example.com/", "format"},
        row{"https://@example.com/", "format"},
        row{"https://exa mple.com/", "format"},
        row{"https://example.com/a b", "format"},
        row{" https://example.com/", "format"},
        row{"https://example.com/\n", "format"},
        row{"https://example.com/\x01", "format"},
        row{"https://example.com/\x7f", "format"},
        row{"https://exämple.com/", "format"},
        row{"https://example.com/ä", "format"},
        row{std::string("https://example.com/\0"sv), "format"},
        row{"https://example.com:", "format"},
        row{"https://example.com:/", "format"},
        row{"https://example.com:abc/", "format"},
        row{"https://example.com:-1/", "format"},
        row{"https://example.com:80:80/", "format"},
        row{"https://example.com/%zz", "format"},
        row{"https://example.com/%2", "format"},
        row{"https://example.com/%", "format"},
        row{"https://example.com/a<b", "format"},
        row{"https://example.com/{x}", "format"},
        row{"https://example.com/a|b", "format"},
        row{"https://example.com/a\"b", "format"},
        row{"https://example.com/a^b", "format"},
        row{"https://example.com/a`b", "format"},
        row{"https://example.com/a[0]", "format"},
        row{"https://example.com/#a#b", "format"},
        row{"https://example.com\\path", "format"},
        row{"https://a..b/", "format"},
        row{"https://.example.com/", "format"},
        row{"https://example..com/", "format"},
        row{"https://ex!ample.com/", "format"},
        row{"https://" + std::string(64, 'a') + ".com/", "format"},
        row{"https://1.2.3.999/", "format"},
        row{"https://1.2.3/", "format"},
        row{"https://1.2.3.4.5/", "format"},
        row{"https://127.1/", "format"},
        row{"https://2130706433/", "format"},
        row{"https://0x7f.0.0.1/", "format"},
        row{"https://example.0x7f/", "format"},
        row{"https://01.2.3.4/", "format"},
        row{"https://0177.0.0.1/", "format"},
        row{"https://[::1/", "format"},
        row{"https://[::1]x/", "format"},
        row{"https://[]/", "format"},
        row{"https://::1/", "format"},
        row{"https://[1:2:3:4:5:6:7:8:9]/", "format"},
        row{"https://[1:2:3:4:5:6:7]/", "format"},
        row{"https://[1::2::3]/", "format"},
        row{"https://[:::]/", "format"},
        row{"https://[:1::]/", "format"},
        row{"https://[1:]/", "format"},
        row{"https://[12345::]/", "format"},
        row{"https://[g::]/", "format"},
        row{"https://[1:2:3:4:5:6:7:1.2.3.4]/", "format"},
        row{"https://[::1.2.3.4.5]/", "format"},
        row{"https://[1.2.3.4]/", "format"},
        row{"https://[fe80::1%25eth0]/", "format"},
        row{"https://[v1.x]/", "format"},
        row{"https://example.com:0/", "range"},
        row{"https://example.com:65536/", "range"},
        row{"https://example.com:99999999999999999999/", "range"},
        row{"https://[::1]:0/", "range"},
        row{"https://example.com/" + std::string(2029, 'a'), "length"},
    }));
    INFO(text);
    const auto parsed = Url::parse(text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.problem().code == code);
    CHECK_FALSE(parsed.problem().message.empty());
}

TEST_CASE("Url is at most 2048 characters", "[types][url]") {
    const std::string longest = "https://example.com/" + std::string(2028, 'a');
    REQUIRE(longest.size() == 2048);
    CHECK(Url::parse(longest).ok());
    const auto too_long = Url::parse(longest + "a");
    CHECK(too_long.problem().code == collectcall::codes::length);
    CHECK(too_long.problem().message == "must be at most 2048 characters");
}

TEST_CASE("Url messages name the problem", "[types][url]") {
    CHECK(Url::parse("ftp://x").problem().message == "must be an absolute http:// or https:// URL");
    CHECK(Url::parse("https://u:p@x/").problem().message ==
          "must not contain a user name or password");
    CHECK(Url::parse("https://x:0/").problem().message == "port must be a number from 1 to 65535");
    CHECK(Url::parse("https://a..b/").problem().message ==
          "must have a valid host name or IP address");
    CHECK(Url::parse("https://x/a b").problem().message ==
          "must not contain spaces, control or non-ASCII characters");
}

TEST_CASE("Url equality compares the text", "[types][url]") {
    CHECK(Url::parse("https://example.com/a").value() ==
          Url::parse("https://example.com/a").value());
    CHECK(Url::parse("https://example.com/a").value() !=
          Url::parse("https://example.com/b").value());
    CHECK(Url::parse("https://example.com").value() != Url::parse("https://example.com/").value());
}
