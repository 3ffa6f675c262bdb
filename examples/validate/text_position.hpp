// Where things are in JSON text: line numbers, the elements of an array, and the place a JSON
// Pointer refers to. collectcall reports errors by JSON Pointer, which is what a program needs;
// a person fixing a file also wants its line, which this finds in the text itself.
//
// The scanner trusts that the text is well-formed JSON (collectcall has parsed it by then), but
// stays within the text whatever it holds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace validate {

// 1-based line numbers of byte offsets.
class LineIndex {
  public:
    explicit LineIndex(std::string_view text) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '\n') starts_.push_back(i + 1);
        }
    }
    [[nodiscard]] std::size_t line_of(std::size_t offset) const {
        return static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                                        starts_.begin());
    }

  private:
    std::vector<std::size_t> starts_;
};

class JsonText {
  public:
    explicit JsonText(std::string_view text) : text_(text) {}

    [[nodiscard]] std::size_t skip_space(std::size_t pos) const {
        while (pos < text_.size() && (text_[pos] == ' ' || text_[pos] == '\t' ||
                                      text_[pos] == '\n' || text_[pos] == '\r')) {
            ++pos;
        }
        return pos;
    }

    // The offset just past the value starting at `pos`.
    [[nodiscard]] std::size_t skip_value(std::size_t pos) const {
        if (pos >= text_.size()) return text_.size();
        if (text_[pos] == '"') return skip_string(pos);
        if (text_[pos] == '{' || text_[pos] == '[') {
            std::size_t depth = 0;
            while (pos < text_.size()) {
                const char c = text_[pos];
                if (c == '"') {
                    pos = skip_string(pos);
                    continue;
                }
                if (c == '{' || c == '[') ++depth;
                if ((c == '}' || c == ']') && --depth == 0) return pos + 1;
                ++pos;
            }
            return pos;
        }
        while (pos < text_.size() && text_[pos] != ',' && text_[pos] != '}' && text_[pos] != ']' &&
               text_[pos] != ' ' && text_[pos] != '\t' && text_[pos] != '\n' &&
               text_[pos] != '\r') {
            ++pos;
        }
        return pos;
    }

    // [begin, end) of every element of the array starting at `pos`.
    [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> elements(std::size_t pos) const {
        std::vector<std::pair<std::size_t, std::size_t>> out;
        if (pos >= text_.size() || text_[pos] != '[') return out;
        pos = skip_space(pos + 1);
        if (pos < text_.size() && text_[pos] == ']') return out;
        while (pos < text_.size()) {
            const std::size_t end = skip_value(pos);
            out.emplace_back(pos, end);
            pos = skip_space(end);
            if (pos >= text_.size() || text_[pos] != ',') break;
            pos = skip_space(pos + 1);
        }
        return out;
    }

    struct Member {
        std::size_t key;    // offset of the key's opening quote
        std::size_t value;  // offset of the value
    };

    // The member `name` of the object starting at `pos`: its first occurrence, or its last one
    // (a duplicate member is reported where it is repeated).
    [[nodiscard]] std::optional<Member> member(std::size_t pos, std::string_view name,
                                               bool last) const {
        if (pos >= text_.size() || text_[pos] != '{') return std::nullopt;
        std::optional<Member> found;
        pos = skip_space(pos + 1);
        while (pos < text_.size() && text_[pos] == '"') {
            const std::size_t key_end = skip_string(pos);
            const std::string_view key = text_.substr(pos + 1, key_end - pos - 2);
            const std::size_t colon = skip_space(key_end);
            if (colon >= text_.size() || text_[colon] != ':') break;
            const std::size_t value = skip_space(colon + 1);
            if (key == name) {
                found = Member{pos, value};
                if (!last) break;
            }
            pos = skip_space(skip_value(value));
            if (pos >= text_.size() || text_[pos] != ',') break;
            pos = skip_space(pos + 1);
        }
        return found;
    }

    // The offset the JSON Pointer `pointer` refers to in the value starting at `pos`: the key of
    // a member, the start of an element. Where the pointer leads to something absent (a
    // required member that is missing), the deepest place that exists.
    [[nodiscard]] std::size_t locate(std::size_t pos, std::string_view pointer,
                                     bool last_occurrence = false) const {
        std::size_t found = pos;
        while (!pointer.empty() && pointer.front() == '/') {
            pointer.remove_prefix(1);
            const std::size_t slash = std::min(pointer.find('/'), pointer.size());
            const std::string token = unescape_token(pointer.substr(0, slash));
            pointer.remove_prefix(slash);
            const bool final_token = pointer.empty();
            if (pos < text_.size() && text_[pos] == '{') {
                auto m = member(pos, token, final_token && last_occurrence);
                if (!m) break;
                found = m->key;
                pos = m->value;
            } else if (pos < text_.size() && text_[pos] == '[') {
                auto items = elements(pos);
                const std::size_t index = to_index(token);
                if (index >= items.size()) break;
                found = pos = items[index].first;
            } else {
                break;
            }
        }
        return found;
    }

  private:
    [[nodiscard]] std::size_t skip_string(std::size_t pos) const {
        ++pos;  // the opening quote
        while (pos < text_.size() && text_[pos] != '"') {
            pos += text_[pos] == '\\' ? 2 : 1;
        }
        return std::min(pos + 1, text_.size());
    }

    static std::string unescape_token(std::string_view token) {
        std::string out;
        for (std::size_t i = 0; i < token.size(); ++i) {
            if (token[i] == '~' && i + 1 < token.size()) {
                out += token[i + 1] == '1' ? '/' : '~';
                ++i;
            } else {
                out += token[i];
            }
        }
        return out;
    }

    static std::size_t to_index(std::string_view token) {
        std::size_t index = 0;
        if (token.empty() || token.size() > 9) return static_cast<std::size_t>(-1);
        for (char c : token) {
            if (c < '0' || c > '9') return static_cast<std::size_t>(-1);
            index = index * 10 + static_cast<std::size_t>(c - '0');
        }
        return index;
    }

    std::string_view text_;
};

}  // namespace validate
