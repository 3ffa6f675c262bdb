// JSON Merge Patch (RFC 7396) over described structs.
//
// A patch struct mirrors its target by member name, every member of the target included (checked
// at compile time: patch_covers_v); each of its members is a Patch<V> or NotAllowed:
//   absent -> the target member is kept;
//   null   -> an optional target member is cleared (a Patch one made absent); a required one
//             cannot be (`not_allowed`);
//   value  -> a value type with `std::optional<Problem> collectcall_merge(T&, const T&)` (found
//             by ADL; JsonObject's is RFC 7396) merges itself; otherwise
//             a nested patch struct merges member by member into the target's nested struct
//             (or, where the target has none, becomes it: its required members must then be
//             given, `required` otherwise); any other value replaces the target member.
// Errors carry JSON Pointer paths into the merged document.
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>

#include "collectcall/core/describe.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/presence.hpp"

namespace collectcall {

namespace detail {

// The index of the member of T called `name`, or the member count.
template <class T>
constexpr std::size_t member_index(std::string_view name) {
    std::size_t index = 0;
    while (index < member_names<T>.size() && member_names<T>[index] != name)
        ++index;
    return index;
}

template <class T>
struct unwrap_optional {
    using type = T;
};
template <class T>
struct unwrap_optional<std::optional<T>> {
    using type = T;
};

class PathScope {
  public:
    PathScope(std::string& path, std::string_view token) : path_(path), size_(path.size()) {
        append_pointer_token(path_, token);
    }
    ~PathScope() { path_.resize(size_); }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;

  private:
    std::string& path_;
    std::size_t size_;
};

}  // namespace detail

// Every member of Target has a member of the same name in PatchT: a Patch<V> that changes it, or
// NotAllowed that declares it immutable. merge_patch refuses to compile a pair that leaves one
// out, so a member added to a model cannot silently become unpatchable.
template <class Target, class PatchT>
inline constexpr bool patch_covers_v = [] {
    for (std::string_view name : detail::member_names<Target>) {
        if (detail::member_index<PatchT>(name) == detail::member_names<PatchT>.size()) return false;
    }
    return true;
}();

template <class Target, class PatchT>
void merge_patch_into(Target& target, const PatchT& patch, ErrorList& errors, std::string& path);

namespace detail {

// Builds a whole Target from a patch that has nothing to merge into.
template <class Target, class PatchT>
std::optional<Target> materialize(const PatchT& patch, ErrorList& errors, std::string& path) {
    Target target{};
    const std::size_t before = errors.size();
    merge_patch_into(target, patch, errors, path);
    boost::mp11::mp_for_each<described_members<Target>>([&](auto D) {
        if constexpr (is_required_member_v<Target, decltype(D)>) {
            constexpr std::size_t i = member_index<PatchT>(D.name);
            bool given = false;
            if constexpr (i < boost::mp11::mp_size<described_members<PatchT>>::value) {
                using P = boost::mp11::mp_at_c<described_members<PatchT>, i>;
                given = (patch.*P::pointer).has_value();
            }
            if (!given) {
                PathScope scope(path, D.name);
                errors.push_back(Error{path, std::string(codes::required), "is required"});
            }
        }
    });
    if (errors.size() != before) return std::nullopt;
    return target;
}

template <class M, class V>
void merge_member(M& member, const Patch<V>& change, ErrorList& errors, std::string& path) {
    if (change.absent()) return;
    if (change.is_null()) {
        if constexpr (is_optional_v<M> || is_patch_v<M>) {
            member.reset();  // a Patch member of a model: absent, left out of what is written
        } else {
            errors.push_back(Error{path, std::string(codes::not_allowed), "cannot be cleared"});
        }
        return;
    }
    using Inner = typename unwrap_optional<M>::type;
    if constexpr (Described<V> && !std::is_same_v<Inner, V>) {
        // A nested patch struct.
        if constexpr (is_optional_v<M>) {
            if (member) {
                merge_patch_into(*member, change.value(), errors, path);
            } else if (auto built = materialize<Inner>(change.value(), errors, path)) {
                member = std::move(*built);
            }
        } else {
            merge_patch_into(member, change.value(), errors, path);
        }
    } else if constexpr (requires(Inner & t, const V& p) {
                             { collectcall_merge(t, p) } -> std::same_as<std::optional<Problem>>;
                         }) {
        // A value type that merges itself (JsonObject: RFC 7396 inside the member). Into an
        // absent member it merges into the type's empty value.
        Inner merged{};
        if constexpr (is_optional_v<M>) {
            if (member) merged = *member;
        } else {
            merged = member;
        }
        if (auto problem = collectcall_merge(merged, change.value())) {
            errors.push_back(
                Error{path, std::string(problem->code), std::string(problem->message)});
            return;
        }
        member = std::move(merged);
    } else {
        member = change.value();
    }
}

}  // namespace detail

// Applies `patch` to `target`, appending errors (paths below `path`).
template <class Target, class PatchT>
void merge_patch_into(Target& target, const PatchT& patch, ErrorList& errors, std::string& path) {
    static_assert(patch_covers_v<Target, PatchT>,
                  "every member of the target needs a patch member of the same name: Patch<V> "
                  "to change it, or NotAllowed to declare it immutable");
    boost::mp11::mp_for_each<described_members<PatchT>>([&](auto D) {
        using P = std::remove_cvref_t<decltype(patch.*D.pointer)>;
        if constexpr (is_patch_v<P>) {
            constexpr std::size_t i = detail::member_index<Target>(D.name);
            static_assert(i < boost::mp11::mp_size<described_members<Target>>::value,
                          "every Patch member must name a member of the target");
            using T = boost::mp11::mp_at_c<described_members<Target>, i>;
            detail::PathScope scope(path, D.name);
            detail::merge_member(target.*T::pointer, patch.*D.pointer, errors, path);
        }
    });
}

// Applies `patch` to `target`. On error `target` may be partly merged: merge into a copy.
template <class Target, class PatchT>
ErrorList merge_patch(Target& target, const PatchT& patch) {
    ErrorList errors;
    std::string path;
    merge_patch_into(target, patch, errors, path);
    return errors;
}

}  // namespace collectcall
