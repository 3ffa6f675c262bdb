// collectcall: the domain model and validation of the debt-collections customer and agent-call
// service. Include this one header for read<T>, write, merge_patch, the value types and models.
// Compliance (compliance/engine.hpp, needs date/tz) and webhook signing (webhook/signature.hpp,
// needs OpenSSL) have dependencies of their own and are included separately.
#pragma once

#include "collectcall/version.hpp"

#include "collectcall/core/bounded.hpp"
#include "collectcall/core/enum.hpp"
#include "collectcall/core/errors.hpp"
#include "collectcall/core/json_number.hpp"
#include "collectcall/core/merge_patch.hpp"
#include "collectcall/core/presence.hpp"
#include "collectcall/core/validated.hpp"
#include "collectcall/core/value_type.hpp"
#include "collectcall/core/write.hpp"

#include "collectcall/types/date.hpp"
#include "collectcall/types/digits.hpp"
#include "collectcall/types/e164.hpp"
#include "collectcall/types/email.hpp"
#include "collectcall/types/message.hpp"
#include "collectcall/types/money.hpp"
#include "collectcall/types/text.hpp"
#include "collectcall/types/timestamp.hpp"
#include "collectcall/types/url.hpp"
#include "collectcall/types/us_state.hpp"
#include "collectcall/types/uuid.hpp"
#include "collectcall/types/zip.hpp"

#include "collectcall/model/account.hpp"
#include "collectcall/model/address.hpp"
#include "collectcall/model/bulk.hpp"
#include "collectcall/model/bulk_call.hpp"
#include "collectcall/model/call.hpp"
#include "collectcall/model/client.hpp"
#include "collectcall/model/collections.hpp"
#include "collectcall/model/compliance.hpp"
#include "collectcall/model/customer.hpp"
#include "collectcall/model/drip_campaign.hpp"
#include "collectcall/model/envelope.hpp"
#include "collectcall/model/interaction.hpp"
#include "collectcall/model/openapi.hpp"
#include "collectcall/model/signed_url.hpp"
#include "collectcall/model/webhook.hpp"

#include "collectcall/interaction/analysis.hpp"
#include "collectcall/interaction/message_writer.hpp"
#include "collectcall/interaction/sms_segments.hpp"

// Header-only, the reader (and simdjson). With COLLECTCALL_SEPARATE_COMPILATION, neither: the
// models' reading and writing are declared compiled elsewhere (collectcall/src.hpp), and not
// compiled in this translation unit; a file that reads another type includes core/read.hpp.
#if !defined(COLLECTCALL_SEPARATE_COMPILATION)
#include "collectcall/core/read.hpp"
#endif
#include "collectcall/extern.hpp"
