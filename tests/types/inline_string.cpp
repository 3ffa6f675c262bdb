// InlineString<N>: short text inside the object, longer text on the heap, values that copy and
// move like std::string.
#include "collectcall/types/detail/inline_string.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <utility>

using Short = collectcall::detail::InlineString<8>;

TEST_CASE("InlineString: short and long text, copies and moves keep the bytes") {
    Short empty;
    CHECK(empty.view().empty());
    CHECK(empty == Short(""));

    Short name("Ann");
    CHECK(name.view() == "Ann");
    const char* inside = name.data();
    CHECK(inside >= reinterpret_cast<const char*>(&name));
    CHECK(inside < reinterpret_cast<const char*>(&name) + sizeof(Short));  // not on the heap

    const std::string long_text(40, 'x');
    Short heap(long_text);
    CHECK(heap.view() == long_text);
    CHECK(heap.size() == 40);

    Short copy = heap;
    CHECK(copy.view() == long_text);
    CHECK(copy.data() != heap.data());
    Short moved = std::move(copy);
    CHECK(moved.view() == long_text);
    Short short_moved = std::move(name);
    CHECK(short_moved.view() == "Ann");

    // A value that has a heap buffer reuses it for text that fits.
    const char* buffer = heap.data();
    heap.assign("short");
    CHECK(heap.view() == "short");
    CHECK(heap.data() == buffer);
    heap.assign(std::string(41, 'y'));
    CHECK(heap.view() == std::string(41, 'y'));

    Short assigned;
    assigned = heap;
    CHECK(assigned == heap);
    assigned = Short("z");
    CHECK(assigned.view() == "z");
    CHECK_FALSE(assigned == heap);
}
