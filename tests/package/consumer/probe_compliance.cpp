// collectcall::compliance brings date/tz: this refers to a function of the compiled library.
#include <string_view>

#include <date/tz.h>

int main() {
    using Locate = const date::time_zone* (*)(std::string_view);
    Locate volatile locate = &date::locate_zone;
    return locate == nullptr ? 1 : 0;
}
