#include <collectcall/webhook/response_reader.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace wh = collectcall::webhook;

namespace {

// Feeds a head the way libcurl does: one line per call.
bool feed_head(wh::ResponseReader& reader, const std::string& head) {
    std::size_t pos = 0;
    while (pos < head.size()) {
        const std::size_t lf = head.find('\n', pos);
        const std::size_t end = lf == std::string::npos ? head.size() : lf + 1;
        if (!reader.head(std::string_view(head).substr(pos, end - pos))) return false;
        pos = end;
    }
    return true;
}

}  // namespace

TEST_CASE("a 2xx head is an accepted delivery; other statuses are not", "[webhook][response]") {
    wh::ResponseReader ok;
    CHECK(feed_head(ok, "HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n"));
    CHECK(ok.accepted());
    CHECK(ok.status() == 204);

    wh::ResponseReader bare;
    CHECK(feed_head(bare, "HTTP/2 200\r\n\r\n"));
    CHECK(bare.accepted());

    wh::ResponseReader busy;
    CHECK(feed_head(busy, "HTTP/1.1 503 Busy\r\n\r\n"));
    CHECK_FALSE(busy.accepted());
    CHECK_FALSE(busy.failed());
    CHECK(busy.status() == 503);

    wh::ResponseReader redirect;
    CHECK(feed_head(redirect, "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/\r\n\r\n"));
    CHECK_FALSE(redirect.accepted());

    wh::ResponseReader unfinished;
    CHECK(feed_head(unfinished, "HTTP/1.1 200 OK\r\nA: b\r\n"));
    CHECK_FALSE(unfinished.accepted());
}

TEST_CASE("interim 1xx heads are skipped", "[webhook][response]") {
    wh::ResponseReader reader;
    CHECK(feed_head(reader, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n"));
    CHECK(reader.accepted());
    wh::ResponseReader only_interim;
    CHECK(feed_head(only_interim, "HTTP/1.1 100 Continue\r\n\r\n"));
    CHECK_FALSE(only_interim.accepted());
    CHECK(only_interim.status() == 0);
}

TEST_CASE("the head's bounds: line length, header count, the status line's form",
          "[webhook][response]") {
    SECTION("a status line of 2 MB is refused after 8 KiB") {
        wh::ResponseReader reader;
        const std::string line = "HTTP/1.1 200 " + std::string(2 * 1024 * 1024, 'a');
        CHECK_FALSE(reader.head(line));
        CHECK(reader.failed());
        CHECK_FALSE(reader.accepted());
    }
    SECTION("a header line of exactly 8 KiB passes, one byte more does not") {
        const std::string value(8 * 1024 - 5, 'v');  // "X: " + value + "\r\n" = 8 KiB
        wh::ResponseReader fits;
        CHECK(feed_head(fits, "HTTP/1.1 200 OK\r\nX: " + value + "\r\n\r\n"));
        CHECK(fits.accepted());
        wh::ResponseReader over;
        CHECK_FALSE(feed_head(over, "HTTP/1.1 200 OK\r\nX: " + value + "v\r\n\r\n"));
        CHECK(over.failed());
    }
    SECTION("100 headers pass, 101 do not") {
        std::string head = "HTTP/1.1 200 OK\r\n";
        for (int i = 0; i < 100; ++i)
            head += "H" + std::to_string(i) + ": x\r\n";
        wh::ResponseReader fits;
        CHECK(feed_head(fits, head + "\r\n"));
        CHECK(fits.accepted());
        wh::ResponseReader over;
        CHECK_FALSE(feed_head(over, head + "One-more: x\r\n\r\n"));
        CHECK(over.failed());
    }
    SECTION("not HTTP") {
        for (const char* head : {"garbage\r\n", "HTTP/1.1 20 OK\r\n", "HTTP/1.1 2000\r\n",
                                 "HTTP/1.1 099 x\r\n", "HTTP/ 200\r\n", "\r\n"}) {
            INFO(head);
            wh::ResponseReader reader;
            CHECK_FALSE(reader.head(head));
            CHECK(reader.failed());
        }
    }
}

TEST_CASE("at most 64 KiB of body is read; a 2xx stays accepted", "[webhook][response]") {
    wh::ResponseReader reader;
    CHECK(feed_head(reader, "HTTP/1.1 200 OK\r\n\r\n"));
    const std::string chunk(16 * 1024, 'b');
    int calls = 0;
    while (reader.body(chunk))
        ++calls;
    CHECK(calls == 3);  // the fourth reaches the limit
    CHECK(reader.body_read() == 64 * 1024);
    CHECK(reader.body_cut());
    CHECK(reader.accepted());

    wh::ResponseReader early;
    CHECK_FALSE(early.body("no head"));
    CHECK(early.failed());
}
