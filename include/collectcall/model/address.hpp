// Address (SPEC.md 2.3): as the hosted service, only zip is required; line1, line2, city and
// state may be absent or null (API.md section 4).
#pragma once

#include <optional>

#include <boost/describe/class.hpp>

#include "collectcall/core/presence.hpp"
#include "collectcall/core/schema_tag.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/us_state.hpp"
#include "collectcall/types/zip.hpp"

namespace collectcall {

struct Address {
    std::optional<Text> line1;
    std::optional<Text> line2;
    std::optional<Text> city;
    std::optional<UsState> state;
    Zip zip;

    friend bool operator==(const Address&, const Address&) = default;
};
BOOST_DESCRIBE_STRUCT(Address, (), (line1, line2, city, state, zip))

// The address member of a PATCH body: merged member by member into the stored address.
struct AddressPatch {
    Patch<Text> line1;
    Patch<Text> line2;
    Patch<Text> city;
    Patch<UsState> state;
    Patch<Zip> zip;

    friend bool operator==(const AddressPatch&, const AddressPatch&) = default;
};
BOOST_DESCRIBE_STRUCT(AddressPatch, (), (line1, line2, city, state, zip))

template <class Schema>
void collectcall_schema(schema_tag<AddressPatch>, Schema& s) {
    s["description"] =
        "Members of the address to change; line1, city, state and zip cannot be "
        "cleared.";
    s.template patch_of<Address>();
}

}  // namespace collectcall
