// Values built from the corpus for the write benchmarks: a stored customer and the result of a
// bulk request of 1000 customers (5% of them failed, with error details), as collectcall values.
// The peers write the same data, converted with peers::to_peer.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "collectcall/core/read.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/uuid.hpp"
#include "corpus/corpus.hpp"

namespace corpus {

inline collectcall::ReadOptions read_options(const Corpus& c) {
    collectcall::ReadOptions options;
    options.today = c.today;
    return options;
}

inline collectcall::Uuid numbered_uuid(std::uint64_t n) {
    collectcall::Uuid::Bytes bytes{};
    for (std::size_t i = 0; i < 8; ++i)
        bytes[15 - i] = static_cast<std::uint8_t>(n >> (8 * i));
    bytes[0] = 0x5e;
    bytes[6] = 0x40;  // version 4
    bytes[8] = 0x80;  // RFC variant
    return collectcall::Uuid::from_bytes(bytes);
}

inline collectcall::Customer stored(const collectcall::CustomerCreate& create, std::uint64_t n) {
    collectcall::Customer customer;
    static_cast<collectcall::CustomerCreate&>(customer) = create;
    customer.id = numbered_uuid(n);
    customer.createdAt = collectcall::Timestamp::parse("2026-11-20T15:04:05.123Z").value();
    customer.updatedAt = collectcall::Timestamp::parse("2026-11-20T15:04:05.123Z").value();
    return customer;
}

inline collectcall::Customer stored_customer(const Corpus& c) {
    auto created = collectcall::read<collectcall::CustomerCreate>(c.customer, read_options(c));
    if (!created.ok()) throw std::runtime_error("the corpus customer does not read");
    return stored(created.value(), 1);
}

inline collectcall::BulkResult bulk_result(const Corpus& c) {
    auto request = collectcall::read<collectcall::BulkCreateRequest>(c.bulk1000, read_options(c));
    if (!request.ok()) throw std::runtime_error("the corpus bulk body does not read");
    collectcall::BulkResult result;
    std::uint64_t n = 0;
    for (const auto& item : request.value().customers) {
        collectcall::BulkItemResult& r = result.results.emplace_back();
        ++n;
        if (n % 20 == 7) {  // as if the externalId already existed, or a rule failed
            r.externalId = std::string(item.value().externalId.view());
            r.success = false;
            if (n % 40 == 7) {
                r.error = "duplicate externalId: " + std::string(item.value().externalId.view());
            } else {
                collectcall::ErrorList details{
                    {"/address/zip", "format", "must be 12345 or 12345-1234"},
                    {"/primaryPhone", "required", "is required"}};
                r.error = collectcall::validation_failure_summary(details);
                r.details = std::move(details);
            }
            ++result.summary.failed;
        } else {
            r.success = true;
            r.customer = stored(item.value(), n);
            ++result.summary.succeeded;
        }
        ++result.summary.total;
    }
    return result;
}

}  // namespace corpus
