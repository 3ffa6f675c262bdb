// The texts of SMS and e-mail interactions (API.md section 13): SmsBody, 1 to 1600 characters;
// EmailBody, at most 256 KiB; SegmentCount, how many SMS segments a message took (1 to 255).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/core/utf8.hpp"
#include "collectcall/types/text.hpp"

namespace collectcall {

namespace detail {

// What a scan of a message's text found.
struct MessageScan {
    std::size_t code_points = 0;
    bool has_content = false;  // a character that is not white space
};

// Decodes the well-formed UTF-8 sequence of `length` bytes at `s`.
constexpr char32_t decode_utf8(const unsigned char* s, std::size_t length) noexcept {
    if (length == 1) return s[0];
    char32_t c = s[0] & (length == 2 ? 0x1FU : length == 3 ? 0x0FU : 0x07U);
    for (std::size_t i = 1; i < length; ++i)
        c = c << 6 | (s[i] & 0x3FU);
    return c;
}

// A message may hold line breaks and tabs: tab, line feed, form feed (in the GSM 03.38 extension
// table) and carriage return. Every other control character (U+0000-U+001F, U+007F) is refused,
// as in every other string of the API.
constexpr bool is_message_control(char32_t c) noexcept {
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r') || c == 0x7F;
}

// Counts the code points of `text` and whether one of them is not white space; a Problem for
// text that is not UTF-8 (parse() is public and may be given anything) or has a control
// character a message may not hold.
inline std::optional<Problem> scan_message(std::string_view text, MessageScan& out) noexcept {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    out = {};
    for (std::size_t i = 0; i < n;) {
        std::size_t length = 1;
        char32_t c = s[i];
        if (c >= 0x80) {
            length = utf8_sequence_length(s + i, n - i);
            if (length == 0) return Problem{codes::format, "must be valid UTF-8"};
            c = decode_utf8(s + i, length);
        }
        if (is_message_control(c)) {
            return Problem{codes::format,
                           "control characters other than tab, line feed, form feed and carriage "
                           "return are not allowed"};
        }
        if (!is_unicode_white_space(c)) out.has_content = true;
        ++out.code_points;
        i += length;
    }
    return std::nullopt;
}

}  // namespace detail

// The body of an SMS: 1 to 1600 characters (code points, as JSON Schema's maxLength counts them),
// stored as sent. 1600 characters is what carriers deliver as one concatenated message at most.
class SmsBody {
  public:
    // An empty placeholder (view() is empty); read<T> never returns one for a required member.
    SmsBody() = default;

    static constexpr std::size_t max_characters = 1600;

    static Parsed<SmsBody> parse(std::string_view text) {
        detail::MessageScan scan;
        if (std::optional<Problem> problem = detail::scan_message(text, scan)) return *problem;
        if (scan.code_points == 0) return Problem{codes::length, "must not be empty"};
        if (scan.code_points > max_characters) {
            return Problem{codes::length, "must be at most 1600 characters"};
        }
        SmsBody out;
        out.text_.assign(text);
        return out;
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_; }

    friend bool operator==(const SmsBody&, const SmsBody&) = default;

  private:
    std::string text_;
};

// The plain-text or HTML body of an e-mail: at most 256 KiB of UTF-8, possibly empty (the rule
// that one of an e-mail's two bodies has content is the e-mail's, model/interaction.hpp).
class EmailBody {
  public:
    EmailBody() = default;

    static constexpr std::size_t max_bytes = std::size_t{256} << 10;

    static Parsed<EmailBody> parse(std::string_view text) {
        if (text.size() > max_bytes) return Problem{codes::length, "must be at most 256 KiB"};
        detail::MessageScan scan;
        if (std::optional<Problem> problem = detail::scan_message(text, scan)) return *problem;
        EmailBody out;
        out.text_.assign(text);
        out.has_content_ = scan.has_content;
        return out;
    }

    [[nodiscard]] std::string_view view() const noexcept { return text_; }
    // Whether a character of the body is not white space.
    [[nodiscard]] bool has_content() const noexcept { return has_content_; }

    friend bool operator==(const EmailBody&, const EmailBody&) = default;

  private:
    std::string text_;
    bool has_content_ = false;
};

// How many segments an SMS took: 1 to 255, as the one-octet count of the concatenation header
// (3GPP TS 23.040 9.2.3.24.1) allows. A count the client gives is kept as given; without one it
// is computed from the body (interaction/sms_segments.hpp).
class SegmentCount {
  public:
    SegmentCount() = default;

    static constexpr std::uint32_t max_value = 255;

    static Parsed<SegmentCount> from_json_number(std::string_view token) noexcept {
        if (token.find_first_of(".eE") != std::string_view::npos) {
            return Problem{codes::type, "must be an integer"};
        }
        if (!token.empty() && token.front() == '-') {
            return Problem{codes::minimum, "must be at least 1"};
        }
        std::uint32_t value = 0;
        for (char c : token) {
            if (c < '0' || c > '9') return Problem{codes::type, "must be an integer"};
            value = value * 10 + static_cast<std::uint32_t>(c - '0');
            if (value > max_value) return Problem{codes::range, "must be at most 255"};
        }
        if (value == 0) return Problem{codes::minimum, "must be at least 1"};
        return SegmentCount(value);
    }

    // Precondition: 1 <= count <= max_value.
    [[nodiscard]] static SegmentCount of(std::uint32_t count) noexcept {
        return SegmentCount(count);
    }

    void append_json(std::string& out) const { out += std::to_string(value_); }
    [[nodiscard]] std::uint32_t value() const noexcept { return value_; }

    friend bool operator==(const SegmentCount&, const SegmentCount&) = default;

  private:
    explicit SegmentCount(std::uint32_t value) noexcept : value_(value) {}

    std::uint32_t value_ = 0;
};

namespace schema_patterns {

// The control characters a message (an SMS or e-mail body) may not hold: all but tab, line
// feed, form feed and carriage return.
inline constexpr std::string_view message_control =
    "[\\u0000-\\u0008\\u000B\\u000E-\\u001F\\u007F]";

}  // namespace schema_patterns

// JSON Schema (core/schema.hpp).
template <class Schema>
void collectcall_schema(schema_tag<SmsBody>, Schema& s) {
    s["type"] = "string";
    s["description"] =
        "1 to 1600 characters; no control characters other than tab, line feed, form feed and "
        "carriage return";
    s["minLength"] = 1;
    s["maxLength"] = static_cast<std::int64_t>(SmsBody::max_characters);
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::message_control;
}

template <class Schema>
void collectcall_schema(schema_tag<EmailBody>, Schema& s) {
    s["type"] = "string";
    s["description"] =
        "At most 256 KiB of UTF-8; no control characters other than tab, line feed, form feed "
        "and carriage return";
    // A bound in characters: every body within 256 KiB has at most that many, but a body of
    // characters of several bytes can have fewer and still be too long.
    s["maxLength"] = static_cast<std::int64_t>(EmailBody::max_bytes);
    s["not"]["type"] = "string";
    s["not"]["pattern"] = schema_patterns::message_control;
}

template <class Schema>
void collectcall_schema(schema_tag<SegmentCount>, Schema& s) {
    s["type"] = "integer";
    s["description"] = "SMS segments, 1 to 255; computed from the body when absent";
    s["minimum"] = 1;
    s["maximum"] = static_cast<std::int64_t>(SegmentCount::max_value);
}

}  // namespace collectcall
