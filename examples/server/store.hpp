// The storage interface of the server. Handlers see only this; SQLite (sqlite/) is one
// implementation, and a second one (PostgreSQL, for several instances behind a load balancer)
// plugs in here without touching them.
//
// Every method that touches a resource takes the account: there is no way to reach another
// account's customers, calls or secrets through this interface. Implementations throw
// StoreError (store_error.hpp) on failure; `unavailable()` errors become 503.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <collectcall/api/limits.hpp>
#include <collectcall/api/page.hpp>
#include <collectcall/collectcall.hpp>
#include <collectcall/compliance/decision.hpp>
#include <collectcall/compliance/retention.hpp>

#include "clock.hpp"
#include "crypto.hpp"

namespace collectcall::server {

// How long an Idempotency-Key replays its first answer, in the stores' millisecond times.
inline constexpr std::int64_t idempotency_lifetime_ms =
    std::chrono::duration_cast<std::chrono::milliseconds>(api::idempotency_retention).count();

using Time = Timestamp::Time;  // UTC, milliseconds

// --- Accounts and keys ---------------------------------------------------------------------

struct AccountSetup {
    std::string name;
    std::vector<E164> caller_numbers;  // appended to the pool (numbers already there are kept)
    // Given to an account whose pool would otherwise be empty: a call needs a number to come
    // from.
    std::optional<E164> fallback_caller_number;
    // The calling window (`init --respectful-hours`): set on the account when given; a new
    // account without one gets the default (08:00-20:50).
    std::optional<compliance::RespectfulHours> window;
    // The compliance policy (`init --compliance`): set when given; a new account without one is
    // `hosted`.
    std::optional<CompliancePolicy> policy;
    // Drip campaigns (`init --campaign`): each defined, or redefined, under its name.
    std::vector<DripCampaignDefinition> campaigns;
    // The rows the account may store per UTC day (`init --daily-rows`): set when given; a new
    // account without one gets api::default_daily_rows.
    std::optional<std::int64_t> daily_rows;
};

// What `init` prints. The key text exists only here: the store keeps its hash.
struct Credentials {
    Uuid accountId;
    std::string apiKey;
    std::string agentId;
};
BOOST_DESCRIBE_STRUCT(Credentials, (), (accountId, apiKey, agentId))

struct KeyRecord {
    Uuid account_id;
    Sha256 hash{};
};

// The account's settings that calls depend on. The respectful-hours window is an account
// setting (API.md section 8); minutes after local midnight, half-open [start, end).
struct AccountSettings {
    std::vector<E164> caller_numbers;
    compliance::RespectfulHours window{};
    unsigned max_calls_per_day = compliance::default_max_calls_per_day;
    CompliancePolicy policy = CompliancePolicy::hosted;
};

// --- Customers -------------------------------------------------------------------------------

// A customer with the state the API does not show as fields (compliance reads it).
struct StoredCustomer {
    Customer customer;
    Uuid thread_id;  // one conversation thread per customer, shared by all its calls
    bool active = true;
    bool cease_and_desist = false;
    // The rest of the customer's standing (API.md section 16) is in `customer`, which shows it:
    // restrictedMedia, attorneyRepresented, disputed.
};

// The customer's standing as a record of the decisions list shows it (StandingChange).
[[nodiscard]] inline Standing customer_standing(const StoredCustomer& stored) {
    return Standing{stored.customer.restrictedMedia, stored.cease_and_desist,
                    stored.customer.attorneyRepresented, stored.customer.disputed};
}

// Gives the customer the standing `after` at `now`: the record of the change (its cause, the
// interaction whose words made it), or nullopt, and the customer untouched, when nothing changes.
[[nodiscard]] inline std::optional<ComplianceDecision> change_customer_standing(
    StoredCustomer& stored, const Standing& after, Time now, CompliancePolicy policy,
    StandingCause cause, Patch<Uuid> interaction = {}) {
    const Standing before = customer_standing(stored);
    if (after == before) return std::nullopt;
    stored.customer.restrictedMedia = after.restrictedMedia;
    stored.cease_and_desist = after.ceaseAndDesist;
    stored.customer.attorneyRepresented = after.attorneyRepresented;
    stored.customer.disputed = after.disputed;
    stored.customer.updatedAt = Timestamp::from_time(now);
    return standing_record(stored.customer.updatedAt, policy, cause, before, after,
                           std::move(interaction));
}

// Changes a customer's standing: gets the customer as stored now (its row locked) and returns the
// record of what it changed (a `standing` decision, API.md section 16), which is stored with the
// customer in the same transaction; nullopt when nothing changed (nothing is stored).
using StandingChanger = std::function<std::optional<ComplianceDecision>(StoredCustomer& customer)>;

// --- Calls -----------------------------------------------------------------------------------

// What the call handler decided inside the store's transaction.
struct CallPlan {
    BlockedCall call;    // nextEligibleAt is written only when the call is blocked
    bool place = false;  // compliance passed: store the call (and count it)
    std::string agent_id;
    std::optional<Webhook> webhook;
    // The record of the evaluation, stored whether the call is placed or not (API.md section
    // 14).
    ComplianceDecision decision;
    // The drip campaign enrolment whose step placed it: its events go to the enrolment's
    // webhook as drip-campaign events (API.md section 15).
    std::optional<Uuid> drip_id;
    // The row it stores is already charged to the daily budget (a bulk request charges its items
    // before the first: Store::charge_rows).
    bool charged = false;
};

// What the dialer sets on a call when it ends it. Each member is the member of CallDetails of its
// name, as the API shows it (call_from_row copies it there by name, and does not compile for one
// CallDetails lacks), and the column of calls of its name in snake case (durationMs:
// duration_ms), which end_calls sets and CallRow selects, both from this description. While the
// call is in progress, its row holds that status and NULLs.
struct CallEnd {
    CallStatus status = CallStatus::completed;  // completed or canceled
    std::optional<EndedReason> endedReason;
    std::optional<std::int64_t> durationMs;
};
BOOST_DESCRIBE_STRUCT(CallEnd, (), (status, endedReason, durationMs))

// How a call in progress ended, as the dialer reports it (Store::end_calls).
struct EndedCall {
    CallEnd call;
    // The call's transcript: a JSON array of TranscriptMessage, as write() makes it.
    std::string transcript;
    Time at{};  // the instant of its call-ended event
};

// An in-progress call of an account's and how it ended (Store::end_calls).
struct CallToEnd {
    Uuid account;
    Uuid id;
    EndedCall ending;
};

// A call still in progress, as a dialer resuming after a restart needs it.
struct CallInProgress {
    Uuid account;
    Uuid id;
};

// The contacts with one customer since a given instant, as the compliance checks count them:
// the start times of the calls placed, of those that were telephone conversations (a call whose
// transcript has a turn of the customer's), and of the text messages sent; and the calls to the
// customer still in progress, whenever they were placed.
struct ContactHistory {
    std::vector<Time> placed;
    std::vector<Time> conversations;
    std::vector<Time> texts;
    std::vector<compliance::OngoingCall> in_progress;
};

// Decides a call from the customer as stored now and its contacts since the `since` given to
// place_call. Runs inside the store's write transaction, so two concurrent calls to one customer
// are counted one after the other.
using CallDecider =
    std::function<CallPlan(const StoredCustomer& customer, const ContactHistory& history)>;

// --- Clients, interactions, analyses --------------------------------------------------------

enum class ClientInsert {
    inserted,  // a new id
    renamed,   // the account's own id: its name is set
    taken,     // another account's id: nothing changed
};

// An SMS or an e-mail of a customer's thread, as the API shows it.
using InteractionRecord = std::variant<SmsInteractionData, EmailInteractionData>;

// An item of a customer's interactions list: an SMS or e-mail, or a call.
using ListedInteraction = std::variant<InteractionRecord, CallDetails>;

// A page of a list (api/page.hpp): its items in the list's order, newest first, and the position
// the next page begins after (none on the last page).
template <class T>
struct Page {
    std::vector<T> items;
    std::optional<api::PageKey> next;
};

[[nodiscard]] inline const Uuid& interaction_id(const InteractionRecord& record) {
    return std::visit([](const auto& r) -> const Uuid& { return r.id; }, record);
}
[[nodiscard]] inline const Timestamp& interaction_time(const InteractionRecord& record) {
    return std::visit([](const auto& r) -> const Timestamp& { return r.timestamp; }, record);
}

// What the handler of a generated message decided inside the store's transaction: the message
// to store when `store`, and the compliance that decided it (an SMS is a communication).
struct InteractionPlan {
    InteractionRecord record;
    bool store = false;
    std::optional<ComplianceResult> compliance;
    // The record of the compliance evaluation, when one was made: stored whether the message is
    // or not (API.md section 14).
    std::optional<ComplianceDecision> decision;
};

// Decides a message from the customer as stored now (its row locked: a call or another message
// to the customer waits) and the times of the calls placed and the SMS sent to it since the
// `since` given to record_interaction.
using InteractionDecider = std::function<InteractionPlan(
    const StoredCustomer& customer, std::span<const Time> calls, std::span<const Time> texts)>;

// The analysis of one interaction (an SMS, an e-mail or a call), stored once.
struct StoredAnalysis {
    Uuid interaction_id;
    Uuid customer_id;
    Channel channel = Channel::sms;
    OutputVariables variables;
    bool outcomes_applied = false;
    Time analysed_at{};
};

// Applies an analysis's outcomes to its customer (section 13's applyOutcomes), as a
// StandingChanger does: the record of the change stores the customer with it.
using OutcomeApplier = std::function<std::optional<ComplianceDecision>(StoredCustomer& customer,
                                                                       const OutputVariables&)>;

// --- Drip campaigns (API.md section 15) ------------------------------------------------------

// What the enrolment handler decided inside the store's transaction, on the customer's row as it
// is and its contacts since the `since` given to enrol_drip.
struct DripEnrolPlan {
    DripEnrolment enrolment;
    std::optional<Webhook> webhook;  // where its events go
    bool store = false;              // false: refused (the customer can never be contacted)
    // When refused, the record of the first step's evaluation (operation `enrolment`), stored in
    // the same transaction (API.md section 16).
    std::optional<ComplianceDecision> decision;
};
using DripEnrolDecider =
    std::function<DripEnrolPlan(const StoredCustomer& customer, const ContactHistory& history)>;

struct DripEnrolResult {
    // The customer has an enrolment in the campaign that has not finished: nothing decided.
    bool already_enrolled = false;
    DripEnrolPlan plan;
};

// An enrolment with a step due.
struct DueEnrolment {
    Uuid account;
    Uuid id;
    Uuid customer;
    // The channel of its due step: an SMS step's text is written before the step runs, from the
    // thread's last inbound message; a call step reads no message (API.md section 17).
    ContactChannel channel = ContactChannel::call;
};

// What running an enrolment's due step decided; the store writes all of it, with the enrolment
// as the runner left it, in one transaction.
struct DripStepPlan {
    std::optional<ComplianceDecision> decision;
    std::optional<CallPlan> call;          // a call placed (stored in progress, counted)
    std::optional<InteractionRecord> sms;  // an SMS sent (an outbound interaction)
    // A drip webhook body to enqueue for the enrolment's webhook (a call's events are enqueued
    // as the call's, from its own events).
    std::optional<std::string> event;
};
// Runs the due step of `enrolment` (which it changes: the step's status, times and
// interaction, the enrolment's status and next step) on the customer's row and contacts;
// `webhook` is the enrolment's.
using DripStepRunner = std::function<DripStepPlan(
    DripEnrolment& enrolment, const StoredCustomer& customer, const ContactHistory& history,
    const std::optional<Webhook>& webhook)>;

// --- Idempotency -----------------------------------------------------------------------------

// A response as first sent, replayed byte for byte.
struct StoredResponse {
    int status = 0;
    std::string body;
    std::string request_id;
};

enum class IdempotencyState {
    started,    // the key is new (or expired): go ahead, then finish or abandon it
    replay,     // the same request was answered before: send `response` again
    mismatch,   // the key was used with a different request
    in_flight,  // the first request with this key has not been answered yet
};

class Store;

struct IdempotencyBegin {
    IdempotencyState state = IdempotencyState::started;
    StoredResponse response;
    // With `started`: the request's store, the same database with the request's transaction
    // (Store::begin_idempotent). Destroyed before finish_idempotent, it rolls the writes back.
    std::unique_ptr<Store> store;
};

// --- Webhook secrets -------------------------------------------------------------------------

enum class SecretInsert {
    inserted,  // a new id
    replaced,  // the account's own id: its text is replaced
    taken,     // another account's id: nothing changed
};

// --- The interface ---------------------------------------------------------------------------

class Store {
  public:
    virtual ~Store() = default;

    // Liveness of the storage (a trivial read).
    virtual void check() = 0;

    // A store that commits the writes of several requests together (group commit) reports each
    // commit to `observer` (the writes it made durable, the time the transaction took) and
    // returns true; a store whose every write is a commit of its own returns false.
    using CommitObserver = std::function<void(std::size_t writes, std::chrono::nanoseconds)>;
    virtual bool observe_commits(CommitObserver /*observer*/) { return false; }
    // A store that times its writes reports each to `observer` (the items it stored: the
    // customers of a bulk, the messages of an import, else 1; the time its caller waited for it to
    // be durable, or in an Idempotency-Key request's store to be part of the request's
    // transaction, which the request's stores report too) and returns true. Both observers are
    // set before the store is shared between threads.
    using WriteObserver = std::function<void(std::size_t items, std::chrono::nanoseconds)>;
    virtual bool observe_writes(WriteObserver /*observer*/) { return false; }

    // The clock whose UTC day the daily budget of stored rows counts (API.md section 17); the
    // system clock's until the server gives its own.
    virtual void set_clock(const Clock& /*clock*/) {}
    // The daily budget of stored rows (API.md section 17). Every write that stores rows of the
    // account's (a customer, a call or the record of a decision, an interaction, an analysis, an
    // enrolment, a client, a webhook secret; not the bookkeeping of webhook messages, call
    // events and Idempotency-Keys) counts them with its own transaction against the account's
    // counter of the day (SqlStore::charge); one that would take it past the budget throws
    // QuotaExceeded (store_error.hpp) and stores nothing. This charges `rows` ahead, for a request
    // whose writes are several transactions (a bulk of calls): all or none.
    virtual void charge_rows(const Uuid& /*account*/, std::int64_t /*rows*/) {}

    // Creates the account `setup.name` if it does not exist, and in any case a new API key and
    // a new agent for it.
    virtual Credentials create_credentials(const AccountSetup& setup, Time now) = 0;
    [[nodiscard]] virtual bool has_accounts() = 0;
    [[nodiscard]] virtual std::optional<KeyRecord> find_api_key(std::string_view key_id) = 0;
    [[nodiscard]] virtual bool agent_assigned(const Uuid& account, std::string_view agent) = 0;
    [[nodiscard]] virtual AccountSettings account_settings(const Uuid& account) = 0;
    // The account as GET /account shows it.
    [[nodiscard]] virtual Account account(const Uuid& account) = 0;

    // False when the account already has a customer with this externalId.
    virtual bool insert_customer(const Uuid& account, const StoredCustomer& customer) = 0;
    // All in one transaction, each item on its own: element i is false when item i was a
    // duplicate externalId (of a stored customer or of an earlier item created by this call).
    virtual std::vector<bool> insert_customers(const Uuid& account,
                                               std::span<const StoredCustomer> customers) = 0;
    [[nodiscard]] virtual std::optional<StoredCustomer> find_customer(const Uuid& account,
                                                                      const Uuid& id) = 0;
    [[nodiscard]] virtual std::optional<StoredCustomer> find_customer_by_external_id(
        const Uuid& account, std::string_view external_id) = 0;
    // Read-modify-write in one transaction: `change` gets the stored customer and returns true
    // to store what it left in it. nullopt when there is no such customer; otherwise the
    // customer as it is after the call.
    virtual std::optional<StoredCustomer> update_customer(
        const Uuid& account, const Uuid& id,
        const std::function<bool(StoredCustomer&)>& change) = 0;
    // The same for a change of standing: the customer and the record `change` returns are stored
    // together, in one transaction. nullopt when there is no such customer; otherwise the
    // customer as it is after the call.
    virtual std::optional<StoredCustomer> change_standing(const Uuid& account, const Uuid& id,
                                                          const StandingChanger& change) = 0;

    // nullopt when there is no such customer. Otherwise the plan `decide` returned, whose
    // decision is stored; when `plan.place` the call is stored with status in-progress and a
    // call-created event, in the same transaction.
    virtual std::optional<CallPlan> place_call(const Uuid& account, const Uuid& customer,
                                               Time since, const CallDecider& decide) = 0;
    [[nodiscard]] virtual std::optional<CallDetails> find_call(const Uuid& account,
                                                               const Uuid& id) = 0;
    // A page of the customer's calls, newest first (by created time).
    [[nodiscard]] virtual Page<CallDetails> list_calls(const Uuid& account, const Uuid& customer,
                                                       const api::PageRequest& page) = 0;
    // Moves in-progress calls to their endings' status, each with a call-ended event and its
    // transcript, in one write: for each, whether it ended (false: the call is unknown or already
    // ended). The seam for the dialer, which ends the calls due together at once.
    virtual std::vector<bool> end_calls(std::span<const CallToEnd> endings) = 0;
    // One call, as end_calls ends it.
    bool end_call(const Uuid& account, const Uuid& id, const EndedCall& ending) {
        const CallToEnd one{account, id, ending};
        return end_calls({&one, 1}).front();
    }
    // Every account's calls still in progress, oldest first: a dialer picks them up when the
    // server starts. A store that keeps no calls across restarts has none.
    [[nodiscard]] virtual std::vector<CallInProgress> calls_in_progress() { return {}; }
    // Calls in progress that another process of a shared database left behind (it stopped, or
    // its lease ran out) and that are this process's from now on. A dialer asks now and then; a
    // store that only one process uses has none.
    [[nodiscard]] virtual std::vector<CallInProgress> take_over_calls() { return {}; }

    // A page of the records of the compliance decisions about a customer, newest first.
    [[nodiscard]] virtual Page<ComplianceDecision> list_compliance_decisions(
        const Uuid& account, const Uuid& customer, const api::PageRequest& page) = 0;

    // Drip campaigns (API.md section 15). nullopt when there is no such customer. Otherwise, in
    // one transaction with the customer's row locked: already_enrolled when the customer has an
    // enrolment in `campaign` that has not finished; else the plan `decide` returned, whose
    // enrolment is stored when `plan.store`, and its decision when it has one.
    virtual std::optional<DripEnrolResult> enrol_drip(const Uuid& account, const Uuid& customer,
                                                      std::string_view campaign, Time since,
                                                      const DripEnrolDecider& decide) = 0;
    // A page of the customer's enrolments, newest first.
    [[nodiscard]] virtual Page<DripEnrolment> list_drip_enrolments(
        const Uuid& account, const Uuid& customer, const api::PageRequest& page) = 0;
    // Read-modify-write of one of the customer's enrolments in one transaction: `change` returns
    // true to store what it left. nullopt when the customer has no such enrolment; otherwise the
    // enrolment as it is after the call.
    virtual std::optional<DripEnrolment> update_drip_enrolment(
        const Uuid& account, const Uuid& customer, const Uuid& id,
        const std::function<bool(DripEnrolment&)>& change) = 0;
    // Enrolments in progress whose next step is due at `now`, at most `limit`, accounts in turn
    // (API.md section 17): every account's soonest due step, then every account's second, and
    // so on, so that one account's thousands of due steps delay another's by one step each.
    [[nodiscard]] virtual std::vector<DueEnrolment> due_drip_enrolments(Time now,
                                                                        std::size_t limit) = 0;
    // Runs the due step of an enrolment once: in one transaction, the enrolment's row locked (on
    // PostgreSQL skipped when another process holds it) and still in progress with its next
    // step due at `now`, the customer's row locked, `run` decides on the contacts since `since`,
    // and its decision, call or SMS, webhook message and the enrolment as `run` left it are
    // stored together. nullopt when the step is not (or no longer) this process's to run.
    virtual std::optional<DripStepPlan> run_drip_step(const Uuid& account, const Uuid& enrolment,
                                                      Time now, Time since,
                                                      const DripStepRunner& run) = 0;

    // Clients (API.md section 13). A new id is inserted, an id the account has already gets the
    // new name, an id of another account is left alone (taken).
    virtual ClientInsert insert_client(const Uuid& account, const Client& client, Time now) = 0;
    // A page of the account's clients, newest first.
    [[nodiscard]] virtual Page<Client> list_clients(const Uuid& account,
                                                    const api::PageRequest& page) = 0;
    [[nodiscard]] virtual bool has_client(const Uuid& account, const Uuid& id) = 0;

    // SMS and e-mail interactions of `customer` (which the caller found), all in one
    // transaction, with the change of standing they make when `standing` is given (an opt-out
    // keyword restricts texts on receipt, API.md section 16).
    virtual void insert_interactions(const Uuid& account, const Uuid& customer,
                                     std::span<const InteractionRecord> records,
                                     const StandingChanger& standing = {}) = 0;
    [[nodiscard]] virtual std::optional<InteractionRecord> find_interaction(const Uuid& account,
                                                                            const Uuid& id) = 0;
    // A page of the customer's SMS, e-mails and calls, newest first (by their timestamp, a
    // call's the time it was placed; SMS and e-mails before the calls of the same instant).
    [[nodiscard]] virtual Page<ListedInteraction> list_interactions(
        const Uuid& account, const Uuid& customer, const api::PageRequest& page) = 0;
    // Whether `thread` is one of the customer's own (foreign_thread_error, model/interaction.hpp):
    // the customer's thread, or one its stored SMS and e-mails use.
    [[nodiscard]] virtual bool customer_has_thread(const Uuid& account, const Uuid& customer,
                                                   const Uuid& thread) = 0;
    // The latest inbound SMS or e-mail of a thread (by its timestamp).
    [[nodiscard]] virtual std::optional<InteractionRecord> last_inbound_interaction(
        const Uuid& account, const Uuid& thread) = 0;
    // nullopt when there is no such customer. Otherwise the plan `decide` returned; when
    // `plan.store` its record is stored, in the transaction that decided it.
    virtual std::optional<InteractionPlan> record_interaction(const Uuid& account,
                                                              const Uuid& customer, Time since,
                                                              const InteractionDecider& decide) = 0;
    // A call's transcript (a JSON array of TranscriptMessage); nullopt when the account has no
    // such call or the call has none (it has not ended).
    [[nodiscard]] virtual std::optional<std::string> find_call_transcript(const Uuid& account,
                                                                          const Uuid& call) = 0;
    // Stores `analysis` unless its interaction has one already, and returns the stored one
    // (analyses are idempotent). With `apply` set, and the stored analysis's outcomes not yet
    // applied, runs it on the customer and marks them applied, in the same transaction.
    virtual StoredAnalysis save_analysis(const Uuid& account, const StoredAnalysis& analysis,
                                         const OutcomeApplier& apply) = 0;

    // Keeps a secret under `id` for `account`: a new id is inserted, an id the account has
    // already gets the new text (a secret imported again after its rotation elsewhere), and an
    // id of another account is left alone (taken).
    virtual SecretInsert insert_webhook_secret(const Uuid& account, const Uuid& id,
                                               std::string_view secret, Time now) = 0;
    // The secret's text, for signing; nullopt when the account has no such secret.
    [[nodiscard]] virtual std::optional<std::string> find_webhook_secret(const Uuid& account,
                                                                         const Uuid& id) = 0;

    // A key of the server itself named `name` (the key of signed recording links): the one
    // stored, or `candidate` after it is stored, so that every process of a shared database
    // uses the same. A store that keeps nothing across restarts answers `candidate`.
    [[nodiscard]] virtual std::string server_key(std::string_view /*name*/,
                                                 std::string_view candidate) {
        return std::string(candidate);
    }

    // Idempotency-Key (API.md section 10). Keys are per account and live
    // api::idempotency_retention.
    // Exactly once under a crash: when begin_idempotent answers `started`, it gives the
    // request a store of its own; every write made through that store is part of one
    // transaction that its finish_idempotent commits together with the answer (it throws, and
    // keeps neither, when the commit fails); its abandon_idempotent rolls the writes back and
    // frees the key. Writes through any other store are not part of it. A crash before that commit
    // leaves the key in flight (freed at the next start, or after its lease on PostgreSQL) and
    // no work; after it, the work and its answer.
    // On SQLite the transaction is a savepoint of one of the single writer's batches, committed
    // by the batch's one COMMIT with the batch's other writes, which wait from the request's
    // first write to its end (sqlite_writer.hpp): a request reads and computes before its first
    // write, and one that holds the writer past SqliteOptions::request_hold_ms is rolled back
    // (its later calls throw an unavailable StoreError). On PostgreSQL it is a transaction on a
    // pooled connection of its own.
    virtual IdempotencyBegin begin_idempotent(const Uuid& account, std::string_view key,
                                              const Sha256& fingerprint, Time now) = 0;
    virtual void finish_idempotent(const Uuid& account, std::string_view key,
                                   const StoredResponse& response) = 0;
    virtual void abandon_idempotent(const Uuid& account, std::string_view key) = 0;

    // Retention (API.md sections 11, 16 and 17): deletes the call events older than
    // webhook::outbox_retention that no webhook message still needs, the Idempotency-Key
    // records past api::idempotency_retention, and the records of every customer whose last
    // collection activity is before compliance::records_expire_before(now) (retention.hpp): its
    // decisions, calls (with their events, webhook messages and analyses) and interactions (with
    // their analyses), together; the customer stays. At most retention_batch_rows rows
    // per transaction. Returns how many rows went. The webhook outbox sweeps its own
    // rows first (WebhookOutbox::sweep).
    //
    // Each customer's last activity is kept with it, moved forward in the transaction of every
    // decision, call (placed and ended) and interaction stored, and cleared once the sweep has
    // taken all its records: the sweep reads only the customers whose records are due.
    virtual std::int64_t sweep(Time /*now*/) { return 0; }
};

// The rows one transaction of a retention sweep (Store::sweep, WebhookOutbox::sweep) deletes at
// most (API.md section 17): no write waits behind it for more than that.
inline constexpr std::int64_t retention_batch_rows = 1000;

}  // namespace collectcall::server
