// schema_tag<T>: selects the schema of T in the collectcall_schema customisation point of
// core/schema.hpp. A header of its own, so that a type can declare its schema beside its
// definition without including the schema engine (the builder is then a template parameter):
//
//     template <class Schema>
//     void collectcall_schema(collectcall::schema_tag<MyType>, Schema& s) {
//         s["type"] = "string";
//         s["pattern"] = "^[A-Z]{3}$";
//     }
//
// The patterns of the library's types (collectcall::schema_patterns, each beside its type) are
// ECMA-262 regular expressions, as JSON Schema specifies. They use no \d, \w, \s or `.`, whose
// meaning differs between regex engines, only explicit classes. In ECMA-262 `$` is the end of
// the string; Python's re, Java and .NET also let it match before a final newline, so the types
// of fixed length (Uuid, Date, Digits<N>) carry minLength/maxLength too, which closes that gap
// for them in every engine.
#pragma once

namespace collectcall {

template <class T>
struct schema_tag {
    using type = T;
};

}  // namespace collectcall
