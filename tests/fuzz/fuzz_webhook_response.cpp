// Fuzz target: the webhook response reader (collectcall/webhook/response_reader.hpp) on arbitrary
// bytes, as a hostile receiver would send them. The first three bytes choose small limits (so
// that short inputs reach every bound) and the size of the pieces the bytes arrive in; the rest
// is the answer. The head is handed over the way libcurl does (up to each LF), the remainder as
// body. Properties:
//   - it never keeps more than the limits: body_read() <= limits.body;
//   - its verdict agrees with an independent statement of the rules: the answer is refused
//     exactly when a line of the head is longer than the line limit, a head has more header
//     lines than the header limit, or a head does not start with `HTTP/<v> <3 digits>`;
//   - a complete final head has a status of 200 to 999 and is accepted exactly when it is 2xx.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <collectcall/webhook/response_reader.hpp>

namespace {

using collectcall::webhook::ResponseLimits;
using collectcall::webhook::ResponseReader;

[[noreturn]] void fail(std::string_view what, std::string_view input) {
    std::fprintf(stderr, "property violated: %.*s\ninput (%zu bytes)\n",
                 static_cast<int>(what.size()), what.data(), input.size());
    std::abort();
}

bool digit(char c) {
    return c >= '0' && c <= '9';
}

// The rules, stated again line by line: how the head must end.
struct Expected {
    bool refused = false;
    bool head_complete = false;
    int status = 0;
    std::size_t head_bytes = 0;  // where the body starts
};

Expected expect(std::string_view input, const ResponseLimits& limits) {
    Expected e;
    bool want_status = true;
    bool interim = false;
    bool done = false;
    std::size_t headers = 0;
    std::size_t pos = 0;
    while (pos < input.size() && !done) {
        const std::size_t lf = input.find('\n', pos);
        const std::size_t end = lf == std::string_view::npos ? input.size() : lf + 1;
        if (end - pos > limits.line) {
            e.refused = true;
            return e;
        }
        if (lf == std::string_view::npos) break;  // an unfinished line: nothing decided
        std::string_view line = input.substr(pos, lf - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = end;
        if (want_status) {
            const std::size_t sp = line.find(' ');
            const bool ok = line.substr(0, 5) == "HTTP/" && sp != std::string_view::npos &&
                            sp > 5 && line.size() >= sp + 4 && digit(line[sp + 1]) &&
                            digit(line[sp + 2]) && digit(line[sp + 3]) &&
                            (line.size() == sp + 4 || line[sp + 4] == ' ') && line[sp + 1] != '0';
            if (!ok) {
                e.refused = true;
                return e;
            }
            const int code =
                (line[sp + 1] - '0') * 100 + (line[sp + 2] - '0') * 10 + (line[sp + 3] - '0');
            want_status = false;
            interim = code < 200;
            headers = 0;
            if (!interim) e.status = code;
        } else if (line.empty()) {
            if (interim) {
                want_status = true;
            } else {
                done = true;
            }
        } else if (++headers > limits.headers) {
            e.refused = true;
            return e;
        }
    }
    e.head_complete = done;
    e.head_bytes = pos;
    return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    ResponseLimits limits;
    limits.line = 8 + data[0] % 64;
    limits.headers = 1 + data[1] % 8;
    limits.body = data[2] % 4 == 0 ? 0 : std::size_t{1} << (data[2] % 12);
    const std::size_t piece = 1 + data[2] / 16;
    const std::string_view input(reinterpret_cast<const char*>(data) + 3, size - 3);

    ResponseReader reader(limits);
    const Expected e = expect(input, limits);

    // The head, one LF-terminated line per call (libcurl's way), each line in pieces.
    std::size_t pos = 0;
    bool going = true;
    while (going && pos < input.size() && !reader.final_head_complete()) {
        const std::size_t lf = input.find('\n', pos);
        const std::size_t end = lf == std::string_view::npos ? input.size() : lf + 1;
        for (std::size_t at = pos; going && at < end; at += piece) {
            going = reader.head(input.substr(at, std::min(piece, end - at)));
        }
        pos = end;
    }
    if (reader.failed() != e.refused) fail("refused differently from the rules", input);
    if (e.refused) return 0;
    if (reader.final_head_complete() != e.head_complete) fail("head end differs", input);
    if (!e.head_complete) {
        if (reader.accepted()) fail("accepted without a complete head", input);
        return 0;
    }
    if (pos != e.head_bytes) fail("head length differs", input);
    if (reader.status() != e.status || e.status < 200 || e.status > 999) {
        fail("status differs", input);
    }

    // The body, in pieces, until the reader says stop.
    for (std::size_t at = pos; going && at < input.size(); at += piece) {
        going = reader.body(input.substr(at, std::min(piece, input.size() - at)));
    }
    if (reader.body_read() > limits.body) fail("read more body than the limit", input);
    if (reader.body_read() < std::min(limits.body, input.size() - pos) && !reader.body_cut()) {
        fail("stopped reading the body early", input);
    }
    if (reader.accepted() != (e.status >= 200 && e.status < 300)) fail("verdict differs", input);
    return 0;
}
