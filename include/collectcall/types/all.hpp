// All self-validating value types of collectcall.
#pragma once

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
