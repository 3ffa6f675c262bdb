// The simulated dialer: a placed call is in progress for one step (`serve --call-step-ms`,
// default 2000 ms), then ends `completed` with an endedReason and a durationMs derived from the
// call id alone, so that a test or a demo knows in advance how each call ends; a call to one of
// the test numbers (test_numbers below, API.md section 16) ends the way its entry says.
//
// It stands where a telephony provider's adapter would: it sees a call once it is stored
// (Dialer::placed) and reports the end through Store::end_calls, whose call-ended event feeds
// the webhook outbox. Calls found in progress when the server starts (the previous process
// stopped or was killed first) are picked up and end one step later. Calls due together end
// account by account in turn (FairQueue), up to `max_endings` of them in one write of the store
// (Store::end_calls), so that under load the dialer keeps up with the calls placed instead of
// waiting for a commit per call.
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "clock.hpp"
#include "dialer.hpp"
#include "fair_queue.hpp"
#include "store.hpp"

namespace collectcall::server {

// What a simulated call's transcript says: the script of its ending, or (a test number's) a
// conversation in which the customer asks the collector to stop calling.
enum class SimulatedScript { of_ending, stop_request };

// How a simulated call ends.
struct SimulatedOutcome {
    EndedReason ended_reason = EndedReason::unknown;
    std::int64_t duration_ms = 0;
    SimulatedScript script = SimulatedScript::of_ending;
};

// Outcomes on demand (API.md section 16), as payment sandboxes have test cards: a call to a
// number whose last seven digits are `digits` (any area code) ends as the entry says, so that a
// team can test its compliance flows deterministically. docs/server.md lists them (a test
// checks the list against this table).
struct TestNumber {
    std::string_view digits;  // the last seven digits of the number called
    EndedReason ended_reason;
    SimulatedScript script;
    std::string_view outcome;  // how docs/server.md describes it
};

inline constexpr std::array<TestNumber, 7> test_numbers{{
    {"5550171", EndedReason::customer_did_not_answer, SimulatedScript::of_ending, "no answer"},
    {"5550172", EndedReason::voicemail, SimulatedScript::of_ending,
     "voicemail: the agent's message, no conversation"},
    {"5550173", EndedReason::customer_ended_call, SimulatedScript::of_ending,
     "a conversation the customer ends"},
    {"5550174", EndedReason::agent_ended_call, SimulatedScript::of_ending,
     "a conversation the agent ends"},
    {"5550175", EndedReason::silence_timed_out, SimulatedScript::of_ending,
     "silence: the agent alone speaks, no conversation"},
    {"5550176", EndedReason::unknown, SimulatedScript::of_ending,
     "unknown: the agent's greeting, no conversation"},
    {"5550177", EndedReason::customer_ended_call, SimulatedScript::stop_request,
     "a conversation in which the customer says \"Stop calling me. Do not contact me again.\""},
}};

// The test number `to` (E.164) is, or null when it is none.
const TestNumber* test_number(std::string_view to);

// The outcome of the call with this id: the same id always gives the same outcome.
SimulatedOutcome simulated_outcome(const Uuid& call_id);

// The outcome of the call with this id to `to`: a test number's ending, or the id's; its
// duration is the id's, in the span of durations of its ending.
SimulatedOutcome simulated_outcome(const Uuid& call_id, std::string_view to);

// A short transcript that fits the ending: none when the customer did not answer, the agent's
// message on a voicemail, a few turns otherwise. Its turns lie within the call, which started
// at `start` and lasted `duration_ms`, one after the other.
std::vector<TranscriptMessage> simulated_transcript(
    EndedReason ended_reason, std::int64_t duration_ms, Time start,
    SimulatedScript script = SimulatedScript::of_ending);

class SimulatedDialer final : public Dialer {
  public:
    // The most calls ended in one write: each takes some tens of microseconds of the store's
    // writer, which the other writes of its batch wait for.
    static constexpr std::size_t max_endings = 32;

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
        Uuid account;
        Uuid call;
    };

    void schedule(const Uuid& account, const Uuid& call, std::chrono::milliseconds after);
    // With mutex_ held.
    void enqueue(const Uuid& account, const Uuid& call, std::chrono::milliseconds after);
    void run();
    // Ends the calls due (at most max_endings): one write.
    void finish(const std::vector<Pending>& due);

    Store& store_;
    const Clock& clock_;
    std::chrono::milliseconds step_;
    std::function<void()> on_event_;
    bool log_;

    std::mutex mutex_;
    std::condition_variable wake_;
    // Calls to end, served account by account in turn: one account's thousands of calls delay
    // another's call by one step each (API.md section 17).
    FairQueue<Pending> pending_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace collectcall::server
