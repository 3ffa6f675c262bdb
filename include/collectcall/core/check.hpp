// Cross-field rules: what a rule of a described struct is given once all of an object's members
// are read. Write, beside the struct (found by ADL),
//
//     void collectcall_check(const T& value, const collectcall::MemberStates& members,
//                            collectcall::RuleErrors& errors);
//
// `members` says what each member was in the document (present, failed, given), `errors` reports
// a problem at the object, at one of its members or at an element of one, each with its JSON
// Pointer. Members are named by pointer (`members.present<&Order::refund>()`,
// `errors.member_error<&Order::reason>(...)`), so that a rule naming a member that does not exist,
// or no longer does, does not compile. Both passes of the reader run the rule (read.hpp); this
// header needs neither the reader nor simdjson.
#pragma once

#include <cstddef>
#include <string_view>

#include "collectcall/core/describe.hpp"

namespace collectcall {

namespace detail {
struct RuleAccess;

// The JSON name of the member `Member` points to, which must be a described member of its
// struct: a rule that names any other member does not compile.
template <auto Member>
constexpr std::string_view checked_member_name() {
    constexpr std::string_view name = member_name<Member>;
    static_assert(!name.empty(), "a member pointer of a described member");
    return name;
}
}  // namespace detail

// What a cross-field rule may ask about the members of one object.
class MemberStates {
  public:
    MemberStates(const std::string_view* names, std::size_t count, const bool* present,
                 const bool* failed)
        : names_(names), count_(count), present_(present), failed_(failed) {}

    // The member was in the document with a value other than null.
    template <auto Member>
    [[nodiscard]] bool present() const {
        return flag(present_, detail::checked_member_name<Member>());
    }
    // The member was in the document and an error was reported inside it.
    template <auto Member>
    [[nodiscard]] bool failed() const {
        return flag(failed_, detail::checked_member_name<Member>());
    }
    // The member was in the document with a value other than null, valid or not: a rule about
    // its absence does not also fire for a member that has its own error.
    template <auto Member>
    [[nodiscard]] bool given() const {
        return present<Member>() || failed<Member>();
    }

  private:
    // Names of the same length are told apart by their first byte before any call to compare
    // the rest (a rule asks several times per object).
    [[nodiscard]] bool flag(const bool* flags, std::string_view name) const {
        if (name.empty()) return false;  // no member has an empty name
        for (std::size_t i = 0; i < count_; ++i) {
            const std::string_view candidate = names_[i];
            if (candidate.size() == name.size() && candidate[0] == name[0] && candidate == name)
                return flags[i];
        }
        return false;
    }
    const std::string_view* names_;
    std::size_t count_;
    const bool* present_;
    const bool* failed_;
};

// Where a cross-field rule reports what it finds, as errors with JSON Pointer paths below the
// object the rule is about. Reading goes on after each; the document is invalid.
class RuleErrors {
  public:
    RuleErrors(const RuleErrors&) = delete;
    RuleErrors& operator=(const RuleErrors&) = delete;

    // A problem with the object as a whole, at its path.
    void error(std::string_view code, std::string_view message) {
        report_(context_, {}, no_index, code, message);
    }
    // A problem with a member (present or not), at the member's path.
    template <auto Member>
    void member_error(std::string_view code, std::string_view message) {
        report_(context_, detail::checked_member_name<Member>(), no_index, code, message);
    }
    // A problem with element `index` of a member that is an array, at the element's path.
    template <auto Member>
    void element_error(std::size_t index, std::string_view code, std::string_view message) {
        report_(context_, detail::checked_member_name<Member>(), index, code, message);
    }

  private:
    friend struct detail::RuleAccess;
    static constexpr std::size_t no_index = static_cast<std::size_t>(-1);
    // The reader's side: reports a problem at the member (none: the object) and the index
    // (no_index: none) below the object being read.
    using Report = void (*)(void* context, std::string_view member, std::size_t index,
                            std::string_view code, std::string_view message);

    RuleErrors(Report report, void* context) noexcept : report_(report), context_(context) {}

    Report report_;
    void* context_;
};

// Whether T has a cross-field rule, `void collectcall_check(const T&, const MemberStates&,
// RuleErrors&)` found by ADL.
template <class T>
concept HasMemberCheck = requires(const T& value, const MemberStates& states, RuleErrors& errors) {
    collectcall_check(value, states, errors);
};

}  // namespace collectcall
