// The separately compiled mode, in the manner of Boost.JSON's src.hpp: with
// COLLECTCALL_SEPARATE_COMPILATION defined (for the whole project), a translation unit that
// includes collectcall/collectcall.hpp does not compile the reading and writing of the models
// below: it calls them, and one translation unit of the project compiles them once by including
// collectcall/src.hpp. Without the macro nothing changes (header-only).
//
// What is compiled once: read<T> and read_into<T> (every overload) of each request body and of
// each document a service keeps and reads back, merge_patch of each PATCH body onto what it
// changes, and write<T> and write_value<T> of all of these and of each document the API answers
// with, so that an Envelope<T> or a list around one calls the separately compiled writer of T.
// Any other type is written where it is used, as in the header-only mode. In this mode the
// umbrella header includes neither the reader nor simdjson (the declarations here need neither):
// a file that reads a type of no list below includes collectcall/core/read.hpp. The compiler
// still inlines everything inside each of these functions; a call across the translation units
// costs one call per document (read) or per model object (write). Every endpoint's body and
// answer are in the lists: api/endpoints.hpp does not compile otherwise.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "collectcall/core/errors.hpp"
#include "collectcall/core/merge_patch.hpp"
#include "collectcall/core/readable.hpp"
#include "collectcall/core/write.hpp"
#include "collectcall/interaction/analysis.hpp"
#include "collectcall/model/account.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/bulk_call.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/client.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/drip_campaign.hpp"
#include "collectcall/model/interaction.hpp"
#include "collectcall/model/signed_url.hpp"
#include "collectcall/model/webhook.hpp"

// The request bodies: read and written.
#define COLLECTCALL_SEPARATE_BODIES(X) \
    X(CustomerCreate)                  \
    X(CustomerPatch)                   \
    X(BulkCreateRequest)               \
    X(CallRequest)                     \
    X(BulkCallRequest)                 \
    X(ClientCreate)                    \
    X(SignedUrlRequest)                \
    X(WebhookSecretImport)             \
    X(EmptyObject)                     \
    X(SmsImportRequest)                \
    X(EmailImportRequest)              \
    X(SmsImportBulkRequest)            \
    X(EmailImportBulkRequest)          \
    X(SmsGenerateRequest)              \
    X(EmailGenerateRequest)            \
    X(AnalyzeInteractionRequest)       \
    X(DripEnrolRequest)                \
    X(DripCancelRequest)               \
    X(RestrictedMediaUpdate)

// The documents a service keeps and reads back (the example server's stored rows): read and
// written.
#define COLLECTCALL_SEPARATE_STORED(X) \
    X(ComplianceResult)                \
    X(ComplianceDecision)              \
    X(SmsInteractionData)              \
    X(EmailInteractionData)            \
    X(OutputVariables)                 \
    X(std::vector<TranscriptMessage>)  \
    X(std::vector<DripStepDefinition>) \
    X(DripEnrolment)

// The documents the API answers with (and sends to webhooks): written.
#define COLLECTCALL_SEPARATE_DOCUMENTS(X) \
    X(Customer)                           \
    X(BulkResult)                         \
    X(Call)                               \
    X(CallDetails)                        \
    X(CallList)                           \
    X(BulkCallResult)                     \
    X(Account)                            \
    X(Client)                             \
    X(SignedUrl)                          \
    X(WebhookSecret)                      \
    X(CallWebhookEvent)                   \
    X(InteractionList)                    \
    X(SmsImportBulkResult)                \
    X(EmailImportBulkResult)              \
    X(SmsGenerateResult)                  \
    X(EmailGenerateResult)                \
    X(AnalyzeInteractionResult)           \
    X(DripWebhookEvent)

// The merge patches (RFC 7396) of the API, as (target, patch): merged.
#define COLLECTCALL_SEPARATE_PATCHES(X) X(CustomerCreate, CustomerPatch)

namespace collectcall::detail {
// The lists as types (api/endpoints.hpp checks that every endpoint's body and answer are
// in them).
#define COLLECTCALL_DETAIL_LIST_ITEM(T) , T
using separate_bodies = boost::mp11::mp_pop_front<
    boost::mp11::mp_list<void COLLECTCALL_SEPARATE_BODIES(COLLECTCALL_DETAIL_LIST_ITEM)>>;
using separate_documents = boost::mp11::mp_pop_front<
    boost::mp11::mp_list<void COLLECTCALL_SEPARATE_STORED(COLLECTCALL_DETAIL_LIST_ITEM)
                             COLLECTCALL_SEPARATE_DOCUMENTS(COLLECTCALL_DETAIL_LIST_ITEM)>>;
#undef COLLECTCALL_DETAIL_LIST_ITEM
}  // namespace collectcall::detail

// Explicit instantiations of the reading and the writing of T: declarations with `extern`,
// definitions (collectcall/src.hpp) without.
#define COLLECTCALL_DETAIL_INSTANTIATE_READ(prefix, T)                                            \
    prefix template Result<T> read<T>(std::string_view, const ReadOptions&);                      \
    prefix template Result<T> read<T>(simdjson::padded_string_view, const ReadOptions&);          \
    prefix template Result<T> read<T>(const simdjson::padded_string&, const ReadOptions&);        \
    prefix template Result<T> read<T, std::string>(const std::string&, const ReadOptions&);       \
    prefix template ErrorList read_into<T>(std::string_view, T&, const ReadOptions&);             \
    prefix template ErrorList read_into<T>(simdjson::padded_string_view, T&, const ReadOptions&); \
    prefix template ErrorList read_into<T>(const simdjson::padded_string&, T&,                    \
                                           const ReadOptions&);                                   \
    prefix template ErrorList read_into<T, std::string>(const std::string&, T&, const ReadOptions&);
#define COLLECTCALL_DETAIL_INSTANTIATE_WRITE(prefix, T)     \
    prefix template void write_value<T>(Writer&, const T&); \
    prefix template std::string write<T>(const T&);
#define COLLECTCALL_DETAIL_INSTANTIATE_PATCH(prefix, Target, PatchT) \
    prefix template ErrorList merge_patch<Target, PatchT>(Target&, const PatchT&);

#if defined(COLLECTCALL_SEPARATE_COMPILATION)
#define COLLECTCALL_DETAIL_EXTERN_BODY(T)          \
    COLLECTCALL_DETAIL_INSTANTIATE_READ(extern, T) \
    COLLECTCALL_DETAIL_INSTANTIATE_WRITE(extern, T)
#define COLLECTCALL_DETAIL_EXTERN_DOCUMENT(T) COLLECTCALL_DETAIL_INSTANTIATE_WRITE(extern, T)
#define COLLECTCALL_DETAIL_EXTERN_PATCH(Target, PatchT) \
    COLLECTCALL_DETAIL_INSTANTIATE_PATCH(extern, Target, PatchT)

namespace collectcall {
COLLECTCALL_SEPARATE_BODIES(COLLECTCALL_DETAIL_EXTERN_BODY)
COLLECTCALL_SEPARATE_STORED(COLLECTCALL_DETAIL_EXTERN_BODY)
COLLECTCALL_SEPARATE_DOCUMENTS(COLLECTCALL_DETAIL_EXTERN_DOCUMENT)
COLLECTCALL_SEPARATE_PATCHES(COLLECTCALL_DETAIL_EXTERN_PATCH)
}  // namespace collectcall
#endif
