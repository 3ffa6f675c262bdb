#include "simulated_dialer.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <iostream>
#include <optional>

namespace collectcall::server {

namespace {

// FNV-1a over the id's text: stable across runs, builds and machines (std::hash is not).
std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

// How often the dialer looks for calls in progress that a stopped process left behind.
constexpr std::chrono::seconds takeover_interval{1};

struct ReasonShape {
    EndedReason reason;
    std::int64_t min_ms;  // durations of this ending lie in [min_ms, max_ms)
    std::int64_t max_ms;
};

// Durations a real call with this ending could plausibly have.
constexpr std::array<ReasonShape, 6> shapes{{
    {EndedReason::customer_did_not_answer, 15'000, 45'000},  // rang out
    {EndedReason::voicemail, 20'000, 90'000},
    {EndedReason::customer_ended_call, 30'000, 600'000},
    {EndedReason::agent_ended_call, 30'000, 900'000},
    {EndedReason::silence_timed_out, 30'000, 60'000},
    {EndedReason::unknown, 1'000, 10'000},
}};

struct Turn {
    MessageRole role = MessageRole::agent;
    std::string_view message;
};

struct Script {
    EndedReason reason;
    std::array<Turn, 4> turns;  // those with an empty message are not said
};

// A test number's conversation (test_numbers): a general stop request made in a call.
constexpr Script stop_request_script{
    EndedReason::customer_ended_call,
    {{{MessageRole::agent, "Hello, this is the collections team calling about your account."},
      {MessageRole::user, "Stop calling me. Do not contact me again."},
      {MessageRole::agent, "I understand. I have noted your request."}}}};

constexpr std::array<Script, 5> scripts{{
    {EndedReason::voicemail,
     {{{MessageRole::agent,
        "Hello, this is a message for you from the collections team. Please call us back at "
        "your convenience about your account. Thank you."}}}},
    {EndedReason::customer_ended_call,
     {{{MessageRole::agent, "Hello, this is the collections team calling about your account."},
       {MessageRole::user, "I can't talk right now."},
       {MessageRole::agent, "I understand. When would be a better time to reach you?"},
       {MessageRole::user, "Not now. Goodbye."}}}},
    {EndedReason::agent_ended_call,
     {{{MessageRole::agent, "Hello, this is the collections team calling about your account."},
       {MessageRole::user, "Yes, I got your letter."},
       {MessageRole::agent, "Thank you. We can set up a payment plan that works for you."},
       {MessageRole::user, "That would help. Please send me the details."}}}},
    {EndedReason::silence_timed_out,
     {{{MessageRole::agent, "Hello, this is the collections team calling about your account."},
       {MessageRole::agent, "Hello? Are you there?"}}}},
    {EndedReason::unknown,
     {{{MessageRole::agent, "Hello, this is the collections team calling."}}}},
}};

}  // namespace

std::vector<TranscriptMessage> simulated_transcript(EndedReason ended_reason,
                                                    std::int64_t duration_ms, Time start,
                                                    SimulatedScript kind) {
    std::vector<TranscriptMessage> messages;
    const Script* script = nullptr;
    if (kind == SimulatedScript::stop_request) {
        script = &stop_request_script;
    } else {
        for (const Script& s : scripts) {
            if (s.reason == ended_reason) script = &s;
        }
    }
    if (script == nullptr || duration_ms <= 0) return messages;  // customer-did-not-answer
    std::size_t count = 0;
    while (count < script->turns.size() && !script->turns[count].message.empty())
        ++count;
    // The call is cut in `count` equal slots; each turn takes the first 80 % of its slot, and a
    // turn's offset is a whole number of milliseconds.
    const std::int64_t slot = duration_ms / static_cast<std::int64_t>(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::int64_t offset = slot * static_cast<std::int64_t>(i);
        const std::int64_t length = slot * 4 / 5;
        TranscriptMessage m;
        m.role = script->turns[i].role;
        m.message = std::string(script->turns[i].message);
        m.startedAt = Timestamp::from_time(start + std::chrono::milliseconds{offset});
        m.endedAt = Timestamp::from_time(start + std::chrono::milliseconds{offset + length});
        m.endTime = m.endedAt;
        m.secondsFromStart = Seconds::from_ms(offset);
        m.duration = length;
        messages.push_back(std::move(m));
    }
    return messages;
}

const TestNumber* test_number(std::string_view to) {
    for (const TestNumber& number : test_numbers) {
        if (to.size() > number.digits.size() && to.ends_with(number.digits)) return &number;
    }
    return nullptr;
}

SimulatedOutcome simulated_outcome(const Uuid& call_id) {
    const std::uint64_t h = fnv1a(call_id.view());
    const ReasonShape& shape = shapes[h % shapes.size()];
    const auto span = static_cast<std::uint64_t>(shape.max_ms - shape.min_ms);
    return SimulatedOutcome{shape.reason,
                            shape.min_ms + static_cast<std::int64_t>((h >> 16) % span)};
}

SimulatedOutcome simulated_outcome(const Uuid& call_id, std::string_view to) {
    const TestNumber* number = test_number(to);
    if (number == nullptr) return simulated_outcome(call_id);
    const std::uint64_t h = fnv1a(call_id.view());
    for (const ReasonShape& shape : shapes) {
        if (shape.reason != number->ended_reason) continue;
        const auto span = static_cast<std::uint64_t>(shape.max_ms - shape.min_ms);
        return SimulatedOutcome{number->ended_reason,
                                shape.min_ms + static_cast<std::int64_t>((h >> 16) % span),
                                number->script};
    }
    return simulated_outcome(call_id);  // not reached: every ending has a shape
}

SimulatedDialer::SimulatedDialer(Store& store, const Clock& clock, std::chrono::milliseconds step,
                                 std::function<void()> on_event, bool log)
    : store_(store), clock_(clock), step_(step), on_event_(std::move(on_event)), log_(log) {}

SimulatedDialer::~SimulatedDialer() {
    stop();
}

void SimulatedDialer::start(const std::vector<CallInProgress>& resumed) {
    {
        std::lock_guard lock(mutex_);
        if (thread_.joinable() || stopping_) return;
        for (const CallInProgress& call : resumed)
            enqueue(call.account, call.id, step_);
    }
    thread_ = std::thread([this] { run(); });
}

void SimulatedDialer::placed(const PlacedCall& call) {
    schedule(call.account, call.plan.call.id, step_);
    // The call-created event was committed with the call.
    if (on_event_) on_event_();
}

void SimulatedDialer::schedule(const Uuid& account, const Uuid& call,
                               std::chrono::milliseconds after) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;  // picked up from the store by the next start
        enqueue(account, call, after);
    }
    wake_.notify_one();
}

void SimulatedDialer::enqueue(const Uuid& account, const Uuid& call,
                              std::chrono::milliseconds after) {
    pending_.push(std::string(account.view()), std::chrono::steady_clock::now() + after,
                  Pending{account, call});
}

void SimulatedDialer::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    if (thread_.joinable()) thread_.join();
}

void SimulatedDialer::run() {
    std::unique_lock lock(mutex_);
    auto next_takeover = std::chrono::steady_clock::now() + takeover_interval;
    while (!stopping_) {
        if (std::chrono::steady_clock::now() >= next_takeover) {
            // Calls another process of a shared database left behind become this one's.
            lock.unlock();
            std::vector<CallInProgress> orphans;
            try {
                orphans = store_.take_over_calls();
            } catch (const std::exception& e) {
                if (log_) {
                    std::cerr << "collectcall-server: taking over calls failed: " << e.what()
                              << std::endl;
                }
            }
            lock.lock();
            for (const CallInProgress& call : orphans)
                enqueue(call.account, call.id, step_);
            next_takeover = std::chrono::steady_clock::now() + takeover_interval;
        }
        const auto now = std::chrono::steady_clock::now();
        std::vector<Pending> due;
        while (due.size() < max_endings) {
            std::optional<Pending> next = pending_.pop_due(now);
            if (!next) break;
            due.push_back(std::move(*next));
        }
        if (due.empty()) {
            const auto soonest = pending_.next_due();
            wake_.wait_until(lock, soonest ? std::min(next_takeover, *soonest) : next_takeover);
            continue;
        }
        lock.unlock();
        finish(due);
        lock.lock();
    }
}

void SimulatedDialer::finish(const std::vector<Pending>& due) {
    try {
        std::vector<CallToEnd> endings;
        endings.reserve(due.size());
        const Time at = clock_.now();
        for (const Pending& pending : due) {
            const auto call = store_.find_call(pending.account, pending.call);
            if (!call) continue;  // not this account's, or gone: nothing to end
            const SimulatedOutcome outcome =
                simulated_outcome(pending.call, call->toPhoneNumber.view());
            CallToEnd& ending = endings.emplace_back();
            ending.account = pending.account;
            ending.id = pending.call;
            ending.ending.call.endedReason = outcome.ended_reason;
            ending.ending.call.durationMs = outcome.duration_ms;
            ending.ending.transcript = write(simulated_transcript(
                outcome.ended_reason, outcome.duration_ms, call->createdAt.time(), outcome.script));
            ending.ending.at = at;
        }
        if (endings.empty()) return;
        const std::vector<bool> ended = store_.end_calls(endings);
        if (on_event_ && std::find(ended.begin(), ended.end(), true) != ended.end()) on_event_();
    } catch (const std::exception& e) {
        // The storage is busy or failing: the calls stay in progress, and ending them is tried
        // again a step later (and by the next start of the server, at the latest). Ending again a
        // call that did end is nothing.
        if (log_) {
            std::cerr << "collectcall-server: ending " << due.size()
                      << " calls failed, retrying: " << e.what() << std::endl;
        }
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        for (const Pending& pending : due)
            enqueue(pending.account, pending.call, step_);
    }
}

}  // namespace collectcall::server
