// Where a placed call goes after it is stored. This server places no real calls: a dialer
// decides how a call moves from in-progress to its end (Store::end_calls), and that is where
// webhook events are produced. The server runs the simulated dialer (simulated_dialer.hpp),
// which ends each call after --call-step-ms; a telephony provider's adapter would replace it.
#pragma once

#include <vector>

#include <collectcall/model/call.hpp>

#include "store.hpp"

namespace collectcall::server {

struct PlacedCall {
    Uuid account;
    Uuid customer;
    CallPlan plan;  // the call as answered, with its agent and webhook
};

class Dialer {
  public:
    virtual ~Dialer() = default;
    // Starts background work; `resumed` are the calls an earlier process left in progress.
    virtual void start(const std::vector<CallInProgress>& /*resumed*/) {}
    // Called after the call is stored and before the response is sent. Must not block.
    virtual void placed(const PlacedCall& call) = 0;
    // Stops background work; no call is handed over after this.
    virtual void stop() {}
};

// Leaves every call in progress.
class IdleDialer final : public Dialer {
  public:
    void placed(const PlacedCall&) override {}
};

}  // namespace collectcall::server
