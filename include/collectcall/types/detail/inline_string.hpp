// InlineString<N>: text of up to N bytes held inside the object, longer text on the heap.
//
// A name, an address line or an e-mail address is read without an allocation (std::string keeps
// only 15 bytes inline), and freeing a value that never went to the heap costs nothing. A value
// that did keep its heap buffer reuses it for the next text that fits, as std::string would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#if defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>
#endif

namespace collectcall::detail {

template <std::size_t N>
class InlineString {
  public:
    InlineString() noexcept = default;
    explicit InlineString(std::string_view text) { assign(text); }
    InlineString(const InlineString& other) { assign(other.view()); }
    InlineString(InlineString&& other) noexcept { take(other); }
    InlineString& operator=(const InlineString& other) {
        if (this != &other) assign(other.view());
        return *this;
    }
    InlineString& operator=(InlineString&& other) noexcept {
        if (this != &other) take(other);
        return *this;
    }
    ~InlineString() = default;

    void assign(std::string_view text) {
        const std::size_t n = text.size();
        char* target = inline_;
        if (heap_ != nullptr && n <= capacity_) {
            target = heap_.get();
        } else if (n > N) {
            heap_ = std::make_unique_for_overwrite<char[]>(n);
            capacity_ = static_cast<std::uint32_t>(n);
            target = heap_.get();
        }
        copy(target, text.data(), n);
        size_ = static_cast<std::uint32_t>(n);
    }

    [[nodiscard]] std::string_view view() const noexcept { return {data(), size_}; }
    [[nodiscard]] const char* data() const noexcept {
        return heap_ != nullptr ? heap_.get() : inline_;
    }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }

    friend bool operator==(const InlineString& a, const InlineString& b) noexcept {
        return a.view() == b.view();
    }

  private:
    // Short text (most of it) is copied in two overlapping fixed-size moves, which the compiler
    // turns into a few loads and stores rather than a call to memcpy. Text of zero bytes may come
    // with a null data(), which memcpy must not be given.
    static void copy(char* to, const char* from, std::size_t n) noexcept {
#if defined(__AVX512BW__) && defined(__AVX512VL__)
        // Up to 32 bytes in one masked load and store, whatever the length (no branch on it to
        // mispredict): the bytes outside the mask are neither read nor written.
        if (n <= 32) {
            const auto mask = static_cast<__mmask32>((std::uint64_t{1} << n) - 1);
            _mm256_mask_storeu_epi8(to, mask, _mm256_maskz_loadu_epi8(mask, from));
            return;
        }
#endif
        if (n >= 16 && n <= 32) {
            std::memcpy(to, from, 16);
            std::memcpy(to + n - 16, from + n - 16, 16);
        } else if (n >= 8 && n < 16) {
            std::memcpy(to, from, 8);
            std::memcpy(to + n - 8, from + n - 8, 8);
        } else if (n >= 4 && n < 8) {
            std::memcpy(to, from, 4);
            std::memcpy(to + n - 4, from + n - 4, 4);
        } else if (n > 0 && n < 4) {
            to[0] = from[0];
            to[n / 2] = from[n / 2];
            to[n - 1] = from[n - 1];
        } else if (n != 0) {
            std::memcpy(to, from, n);
        }
    }

    void take(InlineString& other) noexcept {
        heap_ = std::move(other.heap_);
        capacity_ = std::exchange(other.capacity_, 0);
        size_ = std::exchange(other.size_, 0);
        if (heap_ == nullptr && size_ != 0) std::memcpy(inline_, other.inline_, size_);
    }

    // Sizes fit 32 bits: the values are bounded long before (a body is at most 16 MiB).
    std::unique_ptr<char[]> heap_;
    std::uint32_t capacity_ = 0;  // of heap_
    std::uint32_t size_ = 0;
    char inline_[N];
};

}  // namespace collectcall::detail
