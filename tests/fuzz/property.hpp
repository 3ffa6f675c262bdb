// The property every fuzz target checks on every input (issue 7), shared by the libFuzzer targets
// and by the replay runner that keeps the seed corpus and every crash found as regression tests.
//
// For each model T, read<T>(input) must give what it gives with the fast pass off, and either
//   - return a value and no errors; write(value) is valid UTF-8, reads back as an equal value,
//     and writing that value again gives the same bytes; or
//   - return errors and no value; each error has a valid JSON Pointer path, a known code and a
//     message; malformed_json comes alone, with the path "".
// Independently of the model, input that simdjson's DOM parser accepts (and that nests at most
// max_depth levels) is never malformed_json, and input it rejects for a reason other than numbers
// or depth always is (unless reading stopped at a container's bound before the fault). When the DOM
// parser accepts the input, every error path points at a value of the input, except that of a
// `required` error, whose parent is an object without that member.
//
// A violation prints what was read and what came out, then aborts (a crash to libFuzzer, a failed
// test to the replay runner).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include <collectcall/collectcall.hpp>

namespace collectcall::fuzz {

// "Today" and "now" are fixed so that every run judges dates and timestamps the same way.
inline const ReadOptions& options() {
    static const ReadOptions fixed = [] {
        ReadOptions o;
        o.today = std::chrono::sys_days{std::chrono::year{2025} / std::chrono::June / 15};
        o.now = *o.today + std::chrono::hours{12};
        return o;
    }();
    return fixed;
}

// Printable form of arbitrary bytes: printable ASCII as is, everything else as \xNN.
inline std::string printable(std::string_view bytes, std::size_t limit = 2000) {
    std::string out;
    for (std::size_t i = 0; i < bytes.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += static_cast<char>(c);
        } else {
            static constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xF];
        }
    }
    if (bytes.size() > limit) out += "... (" + std::to_string(bytes.size()) + " bytes)";
    return out;
}

inline std::string describe(const ErrorList& errors) {
    std::string out;
    for (const Error& e : errors) {
        out += "  [" + printable(e.path) + "] " + printable(e.code) + ": " + printable(e.message) +
               "\n";
    }
    return out;
}

// What is being checked, printed when a check fails.
struct Context {
    std::string_view model;
    std::string_view input;
};

[[noreturn]] inline void fail(const Context& context, std::string_view what,
                              std::string_view detail = {}) {
    std::fprintf(stderr,
                 "\n*** collectcall fuzz property violated ***\nmodel: %.*s\ncheck: %.*s\n"
                 "input: %s\n%.*s\n",
                 static_cast<int>(context.model.size()), context.model.data(),
                 static_cast<int>(what.size()), what.data(), printable(context.input).c_str(),
                 static_cast<int>(detail.size()), detail.data());
    std::fflush(stderr);
    std::abort();
}

// Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
// Written independently of the library's own decoders, so that it can judge them.
inline bool is_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = s[i];
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2, cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3, cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4, cp = c & 0x07;
        } else {
            return false;
        }
        if (n - i < len) return false;
        for (std::size_t k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return false;  // overlong
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

// RFC 6901: "" or a sequence of "/" token, where "~" is only followed by "0" or "1".
inline bool is_json_pointer(std::string_view path) {
    if (path.empty()) return true;
    if (path.front() != '/') return false;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '~' &&
            (i + 1 == path.size() || (path[i + 1] != '0' && path[i + 1] != '1'))) {
            return false;
        }
    }
    return is_utf8(path);
}

inline bool is_known_code(std::string_view code) {
    for (std::string_view known :
         {codes::required, codes::type, codes::format, codes::minimum, codes::range, codes::length,
          codes::unknown_field, codes::duplicate_field, codes::not_allowed, codes::not_found,
          codes::conflict, codes::malformed_json, codes::too_many_errors}) {
        if (code == known) return true;
    }
    return false;
}

// Deepest nesting of arrays and objects; only meaningful for valid JSON.
inline std::size_t nesting_depth(std::string_view json) {
    std::size_t depth = 0;
    std::size_t deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (in_string) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// The input, with simdjson's DOM reading of it: an independent judge of well-formedness and of
// where error paths point.
class Input {
  public:
    // Empty input is passed on as a default-constructed view (a null pointer), which is what
    // read<T>({}) receives.
    Input(const std::uint8_t* data, std::size_t size)
        : text_(size == 0 ? std::string_view{}
                          : std::string_view(reinterpret_cast<const char*>(data), size)) {
        static simdjson::dom::parser parser;
        dom_error_ = parser.parse(size == 0 ? "" : text_.data(), text_.size()).get(dom_);
        if (dom_error_ == simdjson::SUCCESS) depth_ = nesting_depth(text_);
    }

    [[nodiscard]] std::string_view text() const noexcept { return text_; }
    [[nodiscard]] bool dom_valid() const noexcept { return dom_error_ == simdjson::SUCCESS; }
    [[nodiscard]] simdjson::error_code dom_error() const noexcept { return dom_error_; }
    [[nodiscard]] std::size_t depth() const noexcept { return depth_; }
    [[nodiscard]] const simdjson::dom::element& dom() const noexcept { return dom_; }

  private:
    std::string_view text_;
    simdjson::dom::element dom_;
    simdjson::error_code dom_error_ = simdjson::UNINITIALIZED;
    std::size_t depth_ = 0;
};

// Errors whose only cause can be a number the DOM parser will not hold (beyond 64 bits or a
// double's range), or nesting deeper than its limit: input that is still valid JSON.
inline bool dom_rejects_valid_json(simdjson::error_code e) {
    return e == simdjson::NUMBER_ERROR || e == simdjson::NUMBER_OUT_OF_RANGE ||
           e == simdjson::DEPTH_ERROR;
}

// Splits the last reference token off a JSON Pointer and unescapes it.
inline std::string last_token(std::string_view pointer, std::string_view& parent) {
    const std::size_t slash = pointer.rfind('/');
    parent = pointer.substr(0, slash);
    std::string token;
    const std::string_view raw = pointer.substr(slash + 1);
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '~' && i + 1 < raw.size()) {
            token += raw[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            token += raw[i];
        }
    }
    return token;
}

// Checks a list of errors reported for the value at `prefix` (a JSON Pointer into the input).
inline void check_errors(const Context& context, const Input& input, const ErrorList& errors,
                         std::string_view prefix = {}) {
    if (errors.empty()) fail(context, "a failed read reports at least one error");
    bool malformed = false;
    for (const Error& e : errors) {
        if (!is_json_pointer(e.path))
            fail(context, "error path is a JSON Pointer", describe(errors));
        if (!is_known_code(e.code)) fail(context, "error code is a known code", describe(errors));
        if (e.message.empty() || !is_utf8(e.message)) {
            fail(context, "error message is non-empty UTF-8", describe(errors));
        }
        if (e.code == codes::malformed_json) malformed = true;
    }
    if (malformed) {
        if (errors.size() != 1 || !errors[0].path.empty() || !prefix.empty()) {
            fail(context, "malformed_json comes alone, at the document, with path \"\"",
                 describe(errors));
        }
        if (input.dom_valid() && input.depth() <= options().max_depth) {
            fail(context, "input the DOM parser accepts is not malformed_json", describe(errors));
        }
        return;
    }
    // A container past its bound stops the read at once (a `length` error): what follows it was
    // never looked at, so it may be malformed.
    const bool stopped_at_bound =
        prefix.empty() && std::any_of(errors.begin(), errors.end(),
                                      [](const Error& e) { return e.code == codes::length; });
    if (!input.dom_valid()) {
        if (!stopped_at_bound && !dom_rejects_valid_json(input.dom_error())) {
            fail(context, "input the DOM parser rejects is malformed_json",
                 std::string("DOM: ") + simdjson::error_message(input.dom_error()) + "\n" +
                     describe(errors));
        }
        return;
    }
    // Where the paths point, checked against the DOM.
    for (const Error& e : errors) {
        const std::string full = std::string(prefix) + e.path;
        if (e.code == codes::required) {
            std::string_view parent;
            if (full.empty()) fail(context, "a required error names a member", describe(errors));
            const std::string member = last_token(full, parent);
            simdjson::dom::object object;
            if (input.dom().at_pointer(parent).get_object().get(object) != simdjson::SUCCESS) {
                fail(context, "the parent of a required error is an object of the input",
                     describe(errors));
            }
            simdjson::dom::element ignored;
            if (object.at_key(member).get(ignored) == simdjson::SUCCESS) {
                fail(context, "a required member is absent from the input", describe(errors));
            }
        } else {
            simdjson::dom::element ignored;
            if (input.dom().at_pointer(full).get(ignored) != simdjson::SUCCESS) {
                fail(context, "an error path points at a value of the input",
                     "full path: " + printable(full) + "\n" + describe(errors));
            }
        }
    }
}

// A read that succeeded: nothing must look like malformed input.
inline void check_accepted(const Context& context, const Input& input) {
    if (!input.dom_valid() && !dom_rejects_valid_json(input.dom_error())) {
        fail(context, "input the DOM parser rejects is malformed_json",
             std::string("DOM: ") + simdjson::error_message(input.dom_error()));
    }
}

// The model-specific part of the round trip: by default the value read back equals the value.
template <class T>
struct RoundTrip {
    static void check(const Context& context, const Input&, const T& value, const T& back,
                      const std::string& written) {
        if (!(back == value)) fail(context, "the written value reads back equal", written);
    }
};

// Bulk items carry their own errors. An item that was valid reads back valid and equal; an item
// that was not has errors that obey the same rules as a document's, at its place in the input.
template <>
struct RoundTrip<BulkCreateRequest> {
    static void check(const Context& context, const Input& input, const BulkCreateRequest& value,
                      const BulkCreateRequest& back, const std::string& written) {
        if (back.customers.size() != value.customers.size()) {
            fail(context, "the written bulk request reads back with as many items", written);
        }
        for (std::size_t i = 0; i < value.customers.size(); ++i) {
            const Validated<CustomerCreate>& item = value.customers[i];
            const Validated<CustomerCreate>& item_back = back.customers[i];
            if (item.ok()) {
                if (!(item_back == item)) {
                    fail(context, "a valid bulk item reads back valid and equal",
                         written + "\n" + describe(item_back.errors()));
                }
            } else {
                check_errors(context, input, item.errors(), "/customers/" + std::to_string(i));
                if (!(item_back.value() == item.value())) {
                    fail(context, "what was kept of an invalid bulk item reads back equal",
                         written);
                }
            }
        }
    }
};

// The same for the items of a bulk import, each read on its own.
template <class Item>
struct RoundTrip<ImportBulkRequest<Item>> {
    static void check(const Context& context, const Input& input,
                      const ImportBulkRequest<Item>& value, const ImportBulkRequest<Item>& back,
                      const std::string& written) {
        if (back.interactions.size() != value.interactions.size()) {
            fail(context, "the written bulk import reads back with as many items", written);
        }
        for (std::size_t i = 0; i < value.interactions.size(); ++i) {
            const Validated<Item>& item = value.interactions[i];
            if (item.ok()) {
                if (!(back.interactions[i] == item)) {
                    fail(context, "a valid import item reads back valid and equal",
                         written + "\n" + describe(back.interactions[i].errors()));
                }
            } else {
                check_errors(context, input, item.errors(), "/interactions/" + std::to_string(i));
            }
        }
    }
};

// Rules that hold of a valid value beyond the round trip.
template <class T>
void check_value(const Context&, const T&) {}

inline void check_value(const Context& context, const CustomerCreate& customer) {
    if (!validate(customer).empty()) {
        fail(context, "validate() agrees with read<CustomerCreate>", describe(validate(customer)));
    }
}

inline void check_value(const Context& context, const Customer& customer) {
    check_value(context, static_cast<const CustomerCreate&>(customer));
}

// An e-mail has a body with content; a bulk call request's ids are distinct.
inline void check_value(const Context& context, const EmailImportRequest& email) {
    if (!(email.plainTextBody && email.plainTextBody->has_content()) &&
        !(email.htmlBody && email.htmlBody->has_content())) {
        fail(context, "an e-mail read has a body with content");
    }
}

inline void check_value(const Context& context, const BulkCallRequest& request) {
    for (std::size_t i = 0; i < request.customerIds.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (request.customerIds[i] == request.customerIds[j])
                fail(context, "a bulk call request read has distinct customer ids");
        }
    }
}

// The whole property for one model.
template <class T>
void check_model(std::string_view model, const Input& input) {
    const Context context{model, input.text()};
    Result<T> result = read<T>(input.text(), options());
    // The fast pass changes nothing: the full pass alone gives the same errors and value.
    {
        ReadOptions full_pass = options();
        full_pass.fast_pass = false;
        const Result<T> full = read<T>(input.text(), full_pass);
        if (full.errors() != result.errors() ||
            (result.ok() && !(full.value() == result.value()))) {
            fail(context, "the fast pass reads as the full pass does",
                 "with it:    " + describe(result.errors()) +
                     "\nwithout it: " + describe(full.errors()));
        }
    }
    if (!result.ok()) {
        check_errors(context, input, result.errors());
        return;
    }
    if (!result.errors().empty())
        fail(context, "a value comes without errors", describe(result.errors()));
    check_accepted(context, input);
    check_value(context, result.value());

    const std::string written = write(result.value());
    if (!is_utf8(written)) fail(context, "the written JSON is valid UTF-8", printable(written));
    Result<T> back = read<T>(written, options());
    if (!back.ok()) {
        fail(context, "the written JSON reads back",
             "written: " + printable(written) + "\n" + describe(back.errors()));
    }
    RoundTrip<T>::check(context, input, result.value(), back.value(), written);
    const std::string rewritten = write(back.value());
    if (rewritten != written) {
        fail(context, "the value read back writes the same bytes",
             "first:  " + printable(written) + "\nsecond: " + printable(rewritten));
    }
}

}  // namespace collectcall::fuzz
