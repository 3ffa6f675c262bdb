// write(value): any supported value -> compact RFC 8259 JSON.
//
// Strings are escaped (control characters as \u00XX) and always leave as valid UTF-8 (an invalid
// sequence in a std::string member becomes U+FFFD); money and other NumberValue types write their
// own exact digits; std::optional without a value is written as null; Patch members that are
// absent and NotAllowed members are left out.
//
// Customisation point: a type of your own becomes writable by a function found by ADL,
//
//     void collectcall_write(collectcall::Writer& writer, const T& value);
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/describe.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/inlining.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/utf8.hpp"
#include "collectcall/core/value_type.hpp"

namespace collectcall {

namespace detail {

// Bytes that need more than a copy: the two JSON specials, control characters, and every
// non-ASCII byte (checked to be part of a well-formed UTF-8 sequence).
inline constexpr auto escape_class = [] {
    std::array<unsigned char, 256> table{};
    for (int c = 0; c < 0x20; ++c)
        table[c] = 1;
    table['"'] = 1;
    table['\\'] = 1;
    table[0x7f] = 1;
    for (int c = 0x80; c < 0x100; ++c)
        table[c] = 2;
    return table;
}();

// Whether any of the 8 bytes at s needs more than a copy (escape_class != 0), eight at a time:
// the usual SWAR tests for a zero byte and for a byte below 0x20, exact as a yes/no answer.
inline bool any_needs_escape(const unsigned char* s) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t high = 0x8080808080808080ULL;
    std::uint64_t x;
    std::memcpy(&x, s, sizeof x);
    const auto has_zero = [&](std::uint64_t v) { return (v - ones) & ~v & high; };
    const std::uint64_t below_space = (x - ones * 0x20) & ~x & high;
    return ((x & high) | below_space | has_zero(x ^ (ones * '"')) | has_zero(x ^ (ones * '\\')) |
            has_zero(x ^ (ones * 0x7F))) != 0;
}

// Whether the n bytes at s are all plain printable ASCII (nothing to escape, nothing to check as
// UTF-8), a word at a time; the bytes of a short text are gathered into one word without reading
// past its end.
inline bool is_plain_text(const unsigned char* s, std::size_t n) noexcept {
    if (n >= 8) {
        for (std::size_t i = 0; i + 8 < n; i += 8) {
            if (any_needs_escape(s + i)) return false;
        }
        return !any_needs_escape(s + n - 8);  // the last word may overlap the one before
    }
    std::uint64_t word = 0x6161616161616161ULL;  // 'a' where the text has no byte
    if (n >= 4) {
        std::uint32_t first;
        std::uint32_t last;
        std::memcpy(&first, s, 4);
        std::memcpy(&last, s + n - 4, 4);
        word = first | (std::uint64_t{last} << 32);
    } else if (n > 0) {
        word = (word & ~std::uint64_t{0xFFFFFF}) | s[0] | (std::uint64_t{s[n / 2]} << 8) |
               (std::uint64_t{s[n - 1]} << 16);
    }
    unsigned char bytes[8];
    std::memcpy(bytes, &word, 8);
    return !any_needs_escape(bytes);
}

}  // namespace detail

// Writes JSON text to the end of a std::string. Small pieces (keys, punctuation, short values)
// are gathered in a buffer inside the Writer and appended to the string a kilobyte at a time, so
// that each piece costs a copy rather than a call into std::string. The text written is in the
// string once the Writer is flush()ed or destroyed (flush() reports a failure to allocate as an
// exception; the destructor cannot); buffer() flushes first, so that what is appended to it
// directly lands in order.
class Writer {
  public:
    explicit Writer(std::string& out) : out_(out) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    ~Writer() { flush(); }

    // Moves what is buffered to the string.
    void flush() {
        if (used_ != 0) out_.append(pending_.data(), used_);
        used_ = 0;
    }

    // The string written to, with everything written so far in it.
    [[nodiscard]] std::string& buffer() {
        flush();
        return out_;
    }

    // How many bytes were written, buffered or not.
    [[nodiscard]] std::size_t size() const noexcept { return out_.size() + used_; }

    void raw(std::string_view text) { put(text.data(), text.size()); }
    void raw(char c) {
        if (used_ == capacity) [[unlikely]]
            flush();
        pending_[used_++] = c;
    }
    void null() { put_literal("null"); }
    void boolean(bool b) {
        if (b) {
            put_literal("true");
        } else {
            put_literal("false");
        }
    }

    template <class Int>
    void integer(Int value) {
        constexpr std::size_t digits = 24;  // a 64-bit integer with its sign needs 20
        if (capacity - used_ < digits) [[unlikely]]
            flush();
        char* at = pending_.data() + used_;
        auto [end, ec] = std::to_chars(at, at + digits, value);
        used_ += static_cast<std::size_t>(end - at);
    }

    // A string, escaped where JSON needs it; a byte that is not part of well-formed UTF-8 is
    // written as U+FFFD.
    COLLECTCALL_HOT void string(std::string_view text) {
        const auto* s = reinterpret_cast<const unsigned char*>(text.data());
        const std::size_t n = text.size();
        if (n + 2 <= capacity - used_ && detail::is_plain_text(s, n)) [[likely]] {
            char* at = pending_.data() + used_;
            at[0] = '"';
            if (n != 0) std::memcpy(at + 1, text.data(), n);  // an empty view's data() may be null
            at[n + 1] = '"';
            used_ += n + 2;
            return;
        }
        escaped_string(text);
    }

  private:
    static constexpr std::size_t capacity = 1024;

    COLLECTCALL_OUT_OF_LINE void escaped_string(std::string_view text) {
        raw('"');
        const auto* s = reinterpret_cast<const unsigned char*>(text.data());
        const std::size_t n = text.size();
        std::size_t run = 0;  // start of the bytes not yet copied
        std::size_t i = 0;
        while (i < n) {
            while (i + 8 <= n && !detail::any_needs_escape(s + i))
                i += 8;
            if (i == n) break;
            const unsigned char kind = detail::escape_class[s[i]];
            if (kind == 0) {
                ++i;
                continue;
            }
            if (kind == 2) {
                if (std::size_t len = detail::utf8_sequence_length(s + i, n - i); len != 0) {
                    i += len;
                    continue;
                }
            }
            put(text.data() + run, i - run);
            escape(s[i], kind);
            run = ++i;
        }
        put(text.data() + run, n - run);
        raw('"');
    }

    COLLECTCALL_HOT void put(const char* text, std::size_t size) {
        if (size > capacity - used_) [[unlikely]]
            return put_long(text, size);
        if (size != 0) std::memcpy(pending_.data() + used_, text, size);  // text may be null then
        used_ += size;
    }
    // A literal's size is known where it is written (put() is inlined): its copy needs no call
    // to memcpy.
    template <std::size_t N>
    void put_literal(const char (&literal)[N]) {
        put(literal, N - 1);
    }
    COLLECTCALL_OUT_OF_LINE void put_long(const char* text, std::size_t size) {
        flush();
        if (size >= capacity / 2) {
            out_.append(text, size);  // a long text goes to the string as it is
        } else {
            std::memcpy(pending_.data(), text, size);
            used_ = size;
        }
    }

    void escape(unsigned char c, unsigned char kind) {
        if (kind == 2) {
            put_literal("\\ufffd");
            return;
        }
        switch (c) {
            case '"':
                put_literal("\\\"");
                return;
            case '\\':
                put_literal("\\\\");
                return;
            case '\n':
                put_literal("\\n");
                return;
            case '\r':
                put_literal("\\r");
                return;
            case '\t':
                put_literal("\\t");
                return;
            case '\b':
                put_literal("\\b");
                return;
            case '\f':
                put_literal("\\f");
                return;
            default: {
                static constexpr char hex[] = "0123456789abcdef";
                const char escaped[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
                put(escaped, 6);
            }
        }
    }

    std::string& out_;
    std::size_t used_ = 0;
    std::array<char, capacity> pending_;
};

template <class T>
void write_value(Writer& writer, const T& value);

namespace detail {

template <class M>
constexpr bool omitted_member(const M& member) {
    if constexpr (std::is_same_v<M, NotAllowed>) {
        return true;
    } else if constexpr (is_patch_v<M>) {
        return member.absent();
    } else {
        return false;
    }
}

// `,"name":` for a described member, built at compile time so that a key costs one append.
// Member names are plain identifiers: nothing to escape.
template <class D>
struct member_key {
    static constexpr std::size_t size = std::char_traits<char>::length(D::name) + 4;
    static constexpr std::array<char, size> text = [] {
        std::array<char, size> t{};
        t[0] = ',';
        t[1] = '"';
        for (std::size_t i = 0; i + 4 < size; ++i)
            t[2 + i] = D::name[i];
        t[size - 2] = '"';
        t[size - 1] = ':';
        return t;
    }();
};

template <class T>
void write_object(Writer& writer, const T& value) {
    using Members = described_members<T>;
    writer.raw('{');
    bool first = true;
    boost::mp11::mp_for_each<Members>([&](auto D) {
        const auto& member = value.*D.pointer;
        if (omitted_member(member)) return;
        constexpr auto& key = member_key<decltype(D)>::text;
        writer.raw(first ? std::string_view(key.data() + 1, key.size() - 1)
                         : std::string_view(key.data(), key.size()));
        first = false;
        write_value(writer, member);
    });
    writer.raw('}');
}

}  // namespace detail

template <class T>
void write_value(Writer& writer, const T& value) {
    if constexpr (requires { collectcall_write(writer, value); }) {
        collectcall_write(writer, value);
    } else if constexpr (is_optional_v<T>) {
        if (value) {
            write_value(writer, *value);
        } else {
            writer.null();
        }
    } else if constexpr (is_patch_v<T>) {
        if (value.has_value()) {
            write_value(writer, value.value());
        } else {
            writer.null();
        }
    } else if constexpr (std::is_same_v<T, NotAllowed> || std::is_same_v<T, null_t>) {
        writer.null();
    } else if constexpr (DescribedEnum<T>) {
        writer.string(enum_name(value));
    } else if constexpr (StringValue<T> || ContextStringValue<T>) {
        writer.string(value.view());
    } else if constexpr (NumberValue<T>) {
        std::string text;  // a number's text usually fits the string's inline capacity
        value.append_json(text);
        writer.raw(text);
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        writer.string(value);
    } else if constexpr (std::is_same_v<T, bool>) {
        writer.boolean(value);
    } else if constexpr (std::is_integral_v<T>) {
        writer.integer(value);
    } else if constexpr (is_vector_v<T> || is_bounded_vector_v<T>) {
        writer.raw('[');
        bool first = true;
        for (const auto& element : value) {
            if (!first) writer.raw(',');
            first = false;
            write_value(writer, element);
        }
        writer.raw(']');
    } else if constexpr (Described<T>) {
        detail::write_object(writer, value);
    } else {
        static_assert(sizeof(T) == 0,
                      "collectcall cannot write this type: describe it with BOOST_DESCRIBE_STRUCT, "
                      "meet StringValue/NumberValue, or provide collectcall_write found by ADL");
    }
}

namespace detail {

// A root value's writing as a plain function of a type-erased pointer, so that what write() and
// write_to() do around it (the Writer, the thread's buffer) is compiled once, not once per type.
using WriteRoot = void (*)(Writer&, const void*);
template <class T>
void write_root(Writer& writer, const void* value) {
    write_value(writer, *static_cast<const T*>(value));
}

COLLECTCALL_OUT_OF_LINE inline void write_to_erased(std::string& out, WriteRoot write,
                                                    const void* value) {
    Writer writer(out);
    write(writer, value);
    writer.flush();
}

}  // namespace detail

// Appends the compact JSON of `value` to `out`.
template <class T>
void write_to(std::string& out, const T& value) {
    detail::write_to_erased(out, &detail::write_root<T>, &value);
}

namespace detail {

// A buffer per thread that keeps its capacity, so that write() allocates once, for the exact
// size of its result, instead of growing a string step by step.
struct WriteScratch {
    std::string buffer;
    bool in_use = false;  // a collectcall_write hook may itself call write()
};

inline WriteScratch& write_scratch() {
    thread_local WriteScratch scratch;
    return scratch;
}

COLLECTCALL_OUT_OF_LINE inline std::string write_erased(WriteRoot write, const void* value) {
    WriteScratch& scratch = write_scratch();
    if (scratch.in_use) {
        std::string out;
        write_to_erased(out, write, value);
        return out;
    }
    struct Release {
        WriteScratch& s;
        ~Release() {
            s.in_use = false;
            // A very large document's buffer is not kept for the life of the thread.
            if (s.buffer.capacity() > (std::size_t{1} << 20)) std::string().swap(s.buffer);
        }
    } release{scratch};
    scratch.in_use = true;
    scratch.buffer.clear();
    write_to_erased(scratch.buffer, write, value);
    return std::string(scratch.buffer);
}

}  // namespace detail

// The compact JSON of `value`.
template <class T>
std::string write(const T& value) {
    return detail::write_erased(&detail::write_root<T>, &value);
}

}  // namespace collectcall
