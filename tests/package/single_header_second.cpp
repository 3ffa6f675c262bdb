// The second translation unit of the single-header test: every definition in the single headers
// must be inline (or a template), or the program fails to link.
#include <collectcall/collectcall.hpp>
#if COLLECTCALL_TEST_WEBHOOK
#include <collectcall/webhook.hpp>
#endif
#if COLLECTCALL_TEST_COMPLIANCE
#include <collectcall/compliance.hpp>
#endif

#include <cstddef>
#include <string_view>

std::size_t count_errors_elsewhere(std::string_view json) {
    return collectcall::read<collectcall::CustomerCreate>(json).errors().size();
}
