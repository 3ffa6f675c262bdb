// The simulated dialer: a placed call is in progress for one step (`serve --call-step-ms`,
// default 2000 ms), then ends `completed` with an endedReason and a durationMs derived from the
// call id alone, so that a test or a demo knows in advance how each call ends.
//
// It stands where a telephony provider's adapter would: it sees a call once it is stored
// (Dialer::placed) and reports the end through Store::end_call, whose call-ended event feeds
// the webhook outbox. Calls found in progress when the server starts (the previous process
// stopped or was killed first) are picked up and end one step later.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <string_view>
#include <thread>
#include <vector>

#include "clock.hpp"
#include "dialer.hpp"
#include "store.hpp"

namespace collectcall::server {

// How a simulated call ends.
struct SimulatedOutcome {
    EndedReason ended_reason = EndedReason::unknown;
    std::int64_t duration_ms = 0;
};

// The outcome of the call with this id: the same id always gives the same outcome.
SimulatedOutcome simulated_outcome(const Uuid& call_id);

// A short transcript that fits the ending: none when the customer did not answer, the agent's
// message on a voicemail, a few turns otherwise. Its turns lie within the call, which started
// at `start` and lasted `duration_ms`, one after the other.
std::vector<TranscriptMessage> simulated_transcript(EndedReason ended_reason,
                                                    std::int64_t duration_ms, Time start);

class SimulatedDialer final : public Dialer {
  public:
    // `on_event` runs after each event the dialer causes (the end of a call) and after each
    // placed call, so that webhook delivery looks at the outbox at once; it must not block.
    SimulatedDialer(Store& store, const Clock& clock, std::chrono::milliseconds step,
                    std::function<void()> on_event, bool log = true);
    ~SimulatedDialer() override;
    SimulatedDialer(const SimulatedDialer&) = delete;
    SimulatedDialer& operator=(const SimulatedDialer&) = delete;

    // Starts the dialer's thread; `resumed` are calls left in progress by an earlier process.
    void start(const std::vector<CallInProgress>& resumed) override;

    void placed(const PlacedCall& call) override;
    void stop() override;

  private:
    struct Pending {
        std::chrono::steady_clock::time_point due;
        Uuid account;
        Uuid call;
        bool operator>(const Pending& other) const { return due > other.due; }
    };

    void schedule(const Uuid& account, const Uuid& call, std::chrono::milliseconds after);
    void run();
    void finish(const Pending& pending);

    Store& store_;
    const Clock& clock_;
    std::chrono::milliseconds step_;
    std::function<void()> on_event_;
    bool log_;

    std::mutex mutex_;
    std::condition_variable wake_;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace collectcall::server
