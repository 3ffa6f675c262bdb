// json_schema<T>() and openapi(): what each model's schema says, that the documents are valid and
// stable JSON, and the customisation point. The differential test (tests/schema/) checks the
// schemas against an independent validator on a corpus of documents.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>
#include <boost/describe/class.hpp>

#include <collectcall/api/openapi.hpp>
#include <collectcall/collectcall.hpp>

using namespace collectcall;

namespace {

// The names of a JSON array of strings.
std::vector<std::string> strings(const Json& array) {
    std::vector<std::string> out;
    for (const Json& v : array.values())
        out.push_back(v.text());
    return out;
}

const Json& member(const Json& object, std::string_view key) {
    const Json* found = object.find(key);
    REQUIRE(found != nullptr);
    return *found;
}

const Json& property(const Json& schema, std::string_view name) {
    return member(member(schema, "properties"), name);
}

const Json& definition(const Json& document, std::string_view name) {
    return member(member(document, "$defs"), name);
}

// The "type" of a schema as text: "string", or "string|null" for an array of types.
std::string type_of(const Json& schema) {
    const Json* type = schema.find("type");
    if (type == nullptr) return "";
    if (type->is_string()) return type->text();
    std::string joined;
    for (const Json& t : type->values())
        joined += (joined.empty() ? "" : "|") + t.text();
    return joined;
}

bool is_ref_to(const Json& schema, std::string_view name) {
    const Json* ref = schema.find("$ref");
    return ref != nullptr && ref->text() == "#/$defs/" + std::string(name);
}

// A nullable $ref: {"anyOf": [{"$ref": ...}, {"type": "null"}]}.
bool is_nullable_ref_to(const Json& schema, std::string_view name) {
    const Json* any = schema.find("anyOf");
    return any != nullptr && any->size() == 2 && is_ref_to(any->values()[0], name) &&
           type_of(any->values()[1]) == "null";
}

// Parses text with simdjson's DOM parser: true when it is one valid JSON document.
bool valid_json(const std::string& text) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    return parser.parse(text).get(root) == simdjson::SUCCESS;
}

}  // namespace

// ---- A user's own types -------------------------------------------------------------------------

namespace bank {

// A value type of the user's: its schema comes from its own collectcall_schema.
class Iban {
  public:
    static collectcall::Parsed<Iban> parse(std::string_view text) {
        if (text.size() < 15 || text.size() > 34) return collectcall::Problem{"format", "bad IBAN"};
        return Iban(text);
    }
    [[nodiscard]] std::string_view view() const noexcept { return text_; }
    friend bool operator==(const Iban&, const Iban&) = default;
    Iban() = default;

  private:
    explicit Iban(std::string_view text) : text_(text) {}
    std::string text_;
};

inline void collectcall_schema(collectcall::schema_tag<Iban>, collectcall::SchemaBuilder& s) {
    s["type"] = "string";
    s["pattern"] = "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$";
}

struct Account {
    Iban iban;
    std::optional<Iban> previous;
    std::optional<collectcall::UsState> state;
    std::vector<Account> subaccounts;  // refers to itself
};
BOOST_DESCRIBE_STRUCT(Account, (), (iban, previous, state, subaccounts))

// Another struct with a name that the library's models also use.
struct Address {
    std::string street;
};
BOOST_DESCRIBE_STRUCT(Address, (), (street))

struct Branch {
    Address address;
    collectcall::Address postal;
};
BOOST_DESCRIBE_STRUCT(Branch, (), (address, postal))

// A struct that picks its own definition name and adds a rule.
struct Transfer {
    std::int64_t cents = 0;
    std::optional<std::string> memo;
};
BOOST_DESCRIBE_STRUCT(Transfer, (), (cents, memo))

inline std::string collectcall_schema_name(collectcall::schema_tag<Transfer>) {
    return "MoneyTransfer";
}
inline void collectcall_schema(collectcall::schema_tag<Transfer>, collectcall::SchemaBuilder& s) {
    s["properties"]["cents"]["minimum"] = 1;
}

struct Ledger {
    std::vector<Transfer> transfers;
};
BOOST_DESCRIBE_STRUCT(Ledger, (), (transfers))

}  // namespace bank

namespace {

struct Local {
    int x = 0;
};
BOOST_DESCRIBE_STRUCT(Local, (), (x))

}  // namespace

// ---- Tests --------------------------------------------------------------------------------------

TEST_CASE("schema: a document names its dialect and its title, and forbids other members",
          "[schema]") {
    const Json doc = json_schema_value<Address>();
    CHECK(member(doc, "$schema").text() == "https://json-schema.org/draft/2020-12/schema");
    CHECK(member(doc, "title").text() == "Address");
    CHECK(type_of(doc) == "object");
    CHECK(member(doc, "additionalProperties").kind() == Json::Kind::boolean);
    CHECK_FALSE(member(doc, "additionalProperties").boolean());
    CHECK(strings(member(doc, "required")) == std::vector<std::string>{"zip"});
    CHECK(type_of(property(doc, "line1")) == "string|null");
    CHECK(type_of(property(doc, "zip")) == "string");
    CHECK(type_of(property(doc, "line2")) == "string|null");
    CHECK_FALSE(doc.contains("$defs"));  // nothing nested
}

TEST_CASE("schema: CustomerCreate", "[schema]") {
    const Json doc = json_schema_value<CustomerCreate>();
    CHECK(strings(member(doc, "required")) == std::vector<std::string>{"externalId", "firstName",
                                                                       "lastName", "email",
                                                                       "primaryPhone", "address"});
    CHECK(member(doc, "title").text() == "CustomerCreate");
    CHECK(member(doc, "properties").keys().size() == 13);
    CHECK(type_of(property(doc, "clientId")) == "string|null");
    CHECK(type_of(property(doc, "inconvenientTimes")) == "array|null");

    SECTION("nested structs are definitions") {
        CHECK(is_ref_to(property(doc, "address"), "Address"));
        CHECK(is_nullable_ref_to(property(doc, "collections"), "Collections"));
        CHECK(member(doc, "$defs").keys() ==
              std::vector<std::string>{"Address", "Collections", "InconvenientTime", "Weekday"});
        const Json& collections = definition(doc, "Collections");
        CHECK(strings(member(collections, "required")) == std::vector<std::string>{"totalBalance"});
        CHECK_FALSE(member(collections, "additionalProperties").boolean());
    }
    SECTION("nullable members") {
        for (std::string_view name :
             {"middleName", "secondaryPhone", "ssnLastFour", "dateOfBirth"}) {
            CAPTURE(name);
            CHECK(type_of(property(doc, name)) == "string|null");
        }
        for (std::string_view name :
             {"externalId", "firstName", "lastName", "email", "primaryPhone"}) {
            CAPTURE(name);
            CHECK(type_of(property(doc, name)) == "string");
        }
    }
    SECTION("formats and patterns of the value types") {
        CHECK(member(property(doc, "primaryPhone"), "pattern").text() == "^\\+[1-9][0-9]{1,14}$");
        CHECK(member(property(doc, "email"), "format").text() == "email");
        CHECK(member(property(doc, "email"), "maxLength").text() == "254");
        CHECK(member(property(doc, "email"), "pattern")
                  .text()
                  .starts_with("^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@"));
        CHECK(member(property(doc, "dateOfBirth"), "format").text() == "date");
        CHECK(member(property(doc, "ssnLastFour"), "pattern").text() == "^[0-9]{4}$");
        CHECK(member(property(doc, "ssnLastFour"), "minLength").text() == "4");
        const Json& first = property(doc, "firstName");
        CHECK(member(first, "minLength").text() == "1");
        CHECK(member(first, "maxLength").text() == "200");
        CHECK(member(member(first, "not"), "pattern").text() == "[\\u0000-\\u001F\\u007F]");
        const Json& address = definition(doc, "Address");
        CHECK(member(property(address, "zip"), "pattern").text() == "^[0-9]{5}(?:-[0-9]{4})?$");
        const std::string state = member(property(address, "state"), "pattern").text();
        CHECK(state.starts_with("^(?:[Aa][Ll]|[Aa][Kk]|"));
        CHECK(state.ends_with("|[Aa][Pp])$"));
        const Json& balance = property(definition(doc, "Collections"), "totalBalance");
        CHECK(type_of(balance) == "number");
        CHECK(member(balance, "minimum").text() == "0");
        CHECK(member(balance, "maximum").text() == "9007199254740992");
        CHECK(type_of(property(definition(doc, "Collections"), "principalBalance")) ==
              "number|null");
        CHECK(member(property(definition(doc, "Collections"), "chargeOffDate"), "format").text() ==
              "date");
    }
    SECTION("the collections rule") {
        const Json& condition = member(doc, "if");
        CHECK(strings(member(condition, "required")) == std::vector<std::string>{"collections"});
        CHECK(type_of(property(condition, "collections")) == "object");
        CHECK(strings(member(member(doc, "then"), "required")) ==
              std::vector<std::string>{"ssnLastFour", "dateOfBirth"});
    }
}

TEST_CASE("schema: Customer is CustomerCreate and its stored members", "[schema]") {
    const Json doc = json_schema_value<Customer>();
    const std::vector<std::string> required = strings(member(doc, "required"));
    // The standing (API.md section 16) is the server's: read-only, and not required, since the
    // hosted service's answers do not have it.
    CHECK(required == std::vector<std::string>{"externalId", "firstName", "lastName", "email",
                                               "primaryPhone", "address", "id", "createdAt",
                                               "updatedAt"});
    for (std::string_view name : {"restrictedMedia", "attorneyRepresented", "disputed"}) {
        CAPTURE(name);
        CHECK(member(property(doc, name), "readOnly").boolean());
        CHECK(property(doc, name).find("anyOf") == nullptr);  // not nullable: absent or a value
    }
    CHECK(member(property(doc, "id"), "format").text() == "uuid");
    CHECK(member(property(doc, "createdAt"), "format").text() == "date-time");
    CHECK(doc.contains("if"));
}

TEST_CASE("schema: CustomerPatch", "[schema]") {
    const Json doc = json_schema_value<CustomerPatch>();
    CHECK_FALSE(doc.contains("required"));  // every member may be absent
    SECTION("members that cannot be sent") {
        for (std::string_view name :
             {"id", "externalId", "restrictedMedia", "attorneyRepresented", "disputed"}) {
            CAPTURE(name);
            const Json& never = property(doc, name);
            REQUIRE(never.find("not") != nullptr);
            CHECK(member(never, "not").keys().empty());
        }
    }
    SECTION("members the customer requires cannot be cleared") {
        for (std::string_view name : {"firstName", "lastName", "email", "primaryPhone"}) {
            CAPTURE(name);
            CHECK(type_of(property(doc, name)) == "string");
        }
        CHECK(is_ref_to(property(doc, "address"), "AddressPatch"));
        const Json& address = definition(doc, "AddressPatch");
        CHECK_FALSE(address.contains("required"));
        CHECK(type_of(property(address, "zip")) == "string");
        CHECK(type_of(property(address, "line2")) == "string|null");
        CHECK(type_of(property(address, "state")) == "string|null");
        const Json& collections = definition(doc, "CollectionsPatch");
        CHECK(type_of(property(collections, "totalBalance")) == "number");
        CHECK(type_of(property(collections, "principalBalance")) == "number|null");
    }
    SECTION("optional members can be cleared") {
        for (std::string_view name :
             {"middleName", "secondaryPhone", "ssnLastFour", "dateOfBirth"}) {
            CAPTURE(name);
            CHECK(type_of(property(doc, name)) == "string|null");
        }
        CHECK(is_nullable_ref_to(property(doc, "collections"), "CollectionsPatch"));
    }
    SECTION("setting collections while clearing ssnLastFour is refused whatever is stored") {
        CHECK(type_of(property(member(doc, "if"), "collections")) == "object");
        CHECK_FALSE(member(doc, "then").contains("required"));
        CHECK(member(property(member(doc, "then"), "ssnLastFour"), "not").find("type")->text() ==
              "null");
    }
}

TEST_CASE("schema: BulkCreateRequest and CallRequest", "[schema]") {
    const Json bulk = json_schema_value<BulkCreateRequest>();
    CHECK(strings(member(bulk, "required")) == std::vector<std::string>{"customers"});
    const Json& customers = property(bulk, "customers");
    CHECK(type_of(customers) == "array");
    CHECK(member(customers, "minItems").text() == "1");
    CHECK(member(customers, "maxItems").text() == "1000");
    CHECK(is_ref_to(member(customers, "items"), "CustomerCreate"));
    CHECK(definition(bulk, "CustomerCreate").contains("if"));

    const Json call = json_schema_value<CallRequest>();
    CHECK(strings(member(call, "required")) == std::vector<std::string>{"agentId"});
    CHECK(is_nullable_ref_to(property(call, "webhook"), "Webhook"));
    const Json& webhook = definition(call, "Webhook");
    CHECK(strings(member(webhook, "required")) == std::vector<std::string>{"url"});
    CHECK(member(property(webhook, "url"), "format").text() == "uri");
    CHECK(member(property(webhook, "url"), "maxLength").text() == "2048");
    CHECK(member(property(webhook, "secretId"), "format").text() == "uuid");
}

TEST_CASE("schema: responses, envelopes and integers", "[schema]") {
    const Json envelope = json_schema_value<Envelope<Customer>>();
    CHECK(member(envelope, "title").text() == "Envelope_Customer");
    CHECK(strings(member(envelope, "required")) ==
          std::vector<std::string>{"requestId", "success", "data"});
    CHECK(is_ref_to(property(envelope, "data"), "Customer"));
    CHECK(type_of(property(envelope, "success")) == "boolean");

    const Json error = json_schema_value<ErrorEnvelope<>>();
    CHECK(member(error, "title").text() == "ErrorEnvelope");
    CHECK(type_of(property(error, "data")) == "null");
    CHECK(is_ref_to(property(error, "error"), "ErrorBody"));
    CHECK(member(json_schema_value<ErrorEnvelope<Call>>(), "title").text() == "ErrorEnvelope_Call");

    const Json result = json_schema_value<BulkResult>();
    const Json& total = property(definition(result, "BulkSummary"), "total");
    CHECK(type_of(total) == "integer");
    CHECK(member(total, "minimum").text() == "-9223372036854775808");
    CHECK(member(total, "maximum").text() == "9223372036854775807");
    const Json& item = definition(result, "BulkItemResult");
    CHECK(strings(member(item, "required")) == std::vector<std::string>{"success"});
    CHECK(member(item, "oneOf").size() == 2);

    const Json details = json_schema_value<CallDetails>();  // a derived struct: base members first
    CHECK(member(details, "properties").keys().front() == "id");
    CHECK(type_of(property(details, "durationMs")) == "integer|null");
}

TEST_CASE("schema: a user's types through the customisation points", "[schema]") {
    const Json doc = json_schema_value<bank::Account>();
    CHECK(member(doc, "title").text() == "Account");
    CHECK(member(property(doc, "iban"), "pattern").text() == "^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$");
    CHECK(type_of(property(doc, "previous")) == "string|null");
    SECTION("a nullable value type keeps its own constraints") {
        const Json& state = property(doc, "state");
        CHECK(type_of(state) == "string|null");
        CHECK(member(state, "pattern").text().starts_with("^(?:[Aa][Ll]|"));
    }
    SECTION("a struct that refers to itself") {
        const Json& items = member(property(doc, "subaccounts"), "items");
        CHECK(is_ref_to(items, "Account"));
        CHECK(strings(member(definition(doc, "Account"), "required")) ==
              std::vector<std::string>{"iban", "subaccounts"});
    }
    SECTION("two structs of the same name get two definitions") {
        const Json branch = json_schema_value<bank::Branch>();
        CHECK(is_ref_to(property(branch, "address"), "Address"));
        CHECK(is_ref_to(property(branch, "postal"), "Address2"));
        CHECK(property(definition(branch, "Address"), "street").find("type")->text() == "string");
        CHECK(definition(branch, "Address2").find("properties")->contains("zip"));
    }
    SECTION("qualifiers, anonymous namespaces too, are not part of a name") {
        const Json local = json_schema_value<Local>();
        CHECK(member(local, "title").text() == "Local");
        CHECK(member(property(local, "x"), "maximum").text() == "2147483647");
    }
    SECTION("a chosen name and an added rule") {
        const Json ledger = json_schema_value<bank::Ledger>();
        CHECK(is_ref_to(member(property(ledger, "transfers"), "items"), "MoneyTransfer"));
        CHECK(member(property(definition(ledger, "MoneyTransfer"), "cents"), "minimum").text() ==
              "1");
    }
}

TEST_CASE("schema: documents are valid JSON and the same every time", "[schema]") {
    const std::vector<std::string> documents = {json_schema<CustomerCreate>(),
                                                json_schema<Customer>(),
                                                json_schema<CustomerPatch>(),
                                                json_schema<BulkCreateRequest>(),
                                                json_schema<BulkResult>(),
                                                json_schema<CallRequest>(),
                                                json_schema<Call>(),
                                                json_schema<CallDetails>(),
                                                json_schema<ErrorEnvelope<>>(),
                                                json_schema<Envelope<WebhookSecret>>(),
                                                openapi()};
    for (const std::string& text : documents) {
        CAPTURE(text.substr(0, 80));
        CHECK(valid_json(text));
    }
    CHECK(json_schema<CustomerCreate>() == documents[0]);
    CHECK(json_schema<CustomerPatch>() == documents[2]);
    CHECK(openapi_value().dump() == openapi());
    CHECK(openapi() == documents.back());

    SECTION("read back, a schema says what it was built with") {
        simdjson::dom::parser parser;
        simdjson::dom::element root;
        REQUIRE(parser.parse(documents[0]).get(root) == simdjson::SUCCESS);
        std::string_view pattern;
        REQUIRE(root.at_pointer("/properties/primaryPhone/pattern").get(pattern) ==
                simdjson::SUCCESS);
        CHECK(pattern == "^\\+[1-9][0-9]{1,14}$");
        std::string_view text_control;
        REQUIRE(root.at_pointer("/properties/firstName/not/pattern").get(text_control) ==
                simdjson::SUCCESS);
        CHECK(text_control == "[\\u0000-\\u001F\\u007F]");
        std::uint64_t maximum = 0;
        REQUIRE(
            root.at_pointer("/$defs/Collections/properties/totalBalance/maximum").get(maximum) ==
            simdjson::SUCCESS);
        CHECK(maximum == 9007199254740992ULL);
    }
}

TEST_CASE("schema: Json writes what it holds", "[schema]") {
    Json j = Json::object();
    j["s"] = "a\"b\\\x01";
    j["n"] = Json::number("1234.56");
    j["i"] = -7;
    j["b"] = false;
    j["z"] = nullptr;
    j["a"] = Json::array({1, "x"});
    j["raw"] = Json::raw(R"({"k":[1,2]})");
    j.append("s", "dup");
    CHECK(
        j.dump() ==
        R"({"s":"a\"b\\\u0001","n":1234.56,"i":-7,"b":false,"z":null,"a":[1,"x"],"raw":{"k":[1,2]},"s":"dup"})");
    CHECK(j.erase("raw"));
    CHECK_FALSE(j.contains("raw"));
    CHECK(write(Json::array({Json::object()})) == "[{}]");
}

TEST_CASE("schema: nullable and non_nullable undo each other", "[schema]") {
    Json text = Json::object();
    text["type"] = "string";
    CHECK(type_of(SchemaBuilder::nullable(text)) == "string|null");
    CHECK(SchemaBuilder::non_nullable(SchemaBuilder::nullable(text)) == text);
    Json ref = Json::object();
    ref["$ref"] = "#/$defs/X";
    CHECK(SchemaBuilder::non_nullable(SchemaBuilder::nullable(ref)) == ref);
    Json values = Json::object();
    values["type"] = "string";
    values["enum"] = Json::array({"A"});
    CHECK(SchemaBuilder::nullable(values).dump() ==
          R"({"type":["string","null"],"enum":["A",null]})");
    CHECK(SchemaBuilder::non_nullable(SchemaBuilder::nullable(values)) == values);
    Json null_only = Json::object();
    null_only["type"] = "null";
    CHECK(SchemaBuilder::nullable(null_only) == null_only);
}

TEST_CASE("openapi: the document of the whole API", "[schema][openapi]") {
    const Json doc = openapi_value();
    CHECK(member(doc, "openapi").text() == "3.1.0");
    CHECK(member(member(doc, "info"), "version").text() == COLLECTCALL_VERSION_STRING);
    const Json& paths = member(doc, "paths");
    CHECK(paths.keys() ==
          std::vector<std::string>{"/healthz",
                                   "/readyz",
                                   "/metrics",
                                   "/api/v1/openapi.json",
                                   "/api/v1/customers",
                                   "/api/v1/customers/bulk",
                                   "/api/v1/customers/{customerId}",
                                   "/api/v1/customers/{customerId}/calls",
                                   "/api/v1/customers/{customerId}/cease-and-desist",
                                   "/api/v1/customers/{customerId}/deactivate",
                                   "/api/v1/customers/{customerId}/activate",
                                   "/api/v1/calls/{callId}",
                                   "/api/v1/calls/{callId}/recording",
                                   "/api/v1/webhook-secrets",
                                   "/api/v1/calls/bulk",
                                   "/api/v1/calls/get-signed-url",
                                   "/api/v1/clients",
                                   "/api/v1/customers/{customerId}/interactions/sms/import",
                                   "/api/v1/customers/{customerId}/interactions/sms/import/bulk",
                                   "/api/v1/customers/{customerId}/interactions/email/import",
                                   "/api/v1/customers/{customerId}/interactions/email/import/bulk",
                                   "/api/v1/customers/{customerId}/interactions/sms/generate",
                                   "/api/v1/customers/{customerId}/interactions/email/generate",
                                   "/api/v1/customers/{customerId}/interactions",
                                   "/api/v1/interactions/{interactionId}/analyze",
                                   "/api/v1/account",
                                   "/api/v1/customers/{customerId}/do-not-call",
                                   "/api/v1/customers/{customerId}/restricted-media",
                                   "/api/v1/customers/{customerId}/compliance-decisions",
                                   "/api/v1/customers/{customerId}/drip-campaigns",
                                   "/api/v1/customers/{customerId}/drip-campaigns/"
                                   "{dripCampaignId}"});

    SECTION("security: bearer everywhere but the bare documents") {
        const Json& scheme =
            member(member(member(doc, "components"), "securitySchemes"), "bearerAuth");
        CHECK(member(scheme, "type").text() == "http");
        CHECK(member(scheme, "scheme").text() == "bearer");
        CHECK(member(doc, "security").size() == 1);
        CHECK(member(member(member(paths, "/healthz"), "get"), "security").size() == 0);
        CHECK(member(member(member(paths, "/api/v1/openapi.json"), "get"), "security").size() == 0);
        CHECK(member(member(member(paths, "/api/v1/calls/{callId}/recording"), "get"), "security")
                  .size() == 0);
    }
    SECTION("statuses and envelopes of create customer") {
        const Json& post = member(member(paths, "/api/v1/customers"), "post");
        const Json& responses = member(post, "responses");
        CHECK(responses.keys() == std::vector<std::string>{"200", "400", "401", "409", "413", "415",
                                                           "422", "429", "431", "500", "503"});
        const Json& created =
            member(member(member(responses, "200"), "content"), "application/json");
        CHECK(member(member(created, "schema"), "$ref").text() ==
              "#/components/schemas/Envelope_Customer");
        const Json& bad = member(member(member(responses, "400"), "content"), "application/json");
        CHECK(member(member(bad, "schema"), "$ref").text() == "#/components/schemas/ErrorEnvelope");
        CHECK(member(member(responses, "400"), "headers").contains("X-Request-Id"));
        CHECK(member(member(responses, "401"), "headers").contains("WWW-Authenticate"));
        CHECK(member(member(responses, "429"), "headers").contains("Retry-After"));
        const Json& body =
            member(member(member(post, "requestBody"), "content"), "application/json");
        CHECK(member(member(body, "schema"), "$ref").text() ==
              "#/components/schemas/CustomerCreate");
        CHECK(member(member(post, "parameters").values()[0], "$ref").text() ==
              "#/components/parameters/Idempotency-Key");
    }
    SECTION("a blocked call carries the call") {
        const Json& post = member(member(paths, "/api/v1/customers/{customerId}/calls"), "post");
        const Json& blocked =
            member(member(member(member(post, "responses"), "422"), "content"), "application/json");
        const Json& one_of = member(member(blocked, "schema"), "oneOf");
        CHECK(member(one_of.values()[0], "$ref").text() ==
              "#/components/schemas/ErrorEnvelope_BlockedCall");
        CHECK(member(member(post, "responses"), "403").contains("content"));
    }
    SECTION("PATCH takes merge-patch+json too") {
        const Json& patch = member(member(paths, "/api/v1/customers/{customerId}"), "patch");
        CHECK(member(member(patch, "requestBody"), "content").keys() ==
              std::vector<std::string>{"application/merge-patch+json", "application/json"});
    }
    SECTION("every schema that a $ref names is there") {
        const Json& schemas = member(member(doc, "components"), "schemas");
        for (std::string_view name : {"CustomerCreate",
                                      "Customer",
                                      "CustomerPatch",
                                      "AddressPatch",
                                      "CollectionsPatch",
                                      "Address",
                                      "Collections",
                                      "BulkCreateRequest",
                                      "BulkResult",
                                      "BulkItemResult",
                                      "CallRequest",
                                      "Webhook",
                                      "Call",
                                      "CallDetails",
                                      "CallList",
                                      "ComplianceResult",
                                      "Check",
                                      "WebhookSecret",
                                      "ErrorBody",
                                      "Error",
                                      "Envelope_Customer",
                                      "ErrorEnvelope",
                                      "ErrorEnvelope_BlockedCall",
                                      "BlockedCall",
                                      "CustomerList",
                                      "Account",
                                      "ComplianceDecisionList",
                                      "HealthStatus",
                                      "CallWebhookEvent"}) {
            CAPTURE(name);
            CHECK(schemas.contains(name));
        }
        CHECK(member(member(schemas, "Address"), "properties").contains("zip"));
    }
    SECTION("call events are described as a webhook") {
        CHECK(member(member(doc, "webhooks"), "callEvent").contains("post"));
        CHECK(member(member(doc, "webhooks"), "dripCampaignEvent").contains("post"));
    }
}

TEST_CASE("openapi: the examples are valid for the library", "[schema][openapi]") {
    ReadOptions options;
    options.today = std::chrono::sys_days{std::chrono::year{2026} / 11 / 20};
    CHECK(read<CustomerCreate>(openapi_examples::customer_create_minimal, options).ok());
    CHECK(read<CustomerCreate>(openapi_examples::customer_create_collections, options).ok());
    CHECK(read<Customer>(openapi_examples::customer, options).ok());
    CHECK(read<CustomerPatch>(openapi_examples::customer_patch, options).ok());
    auto bulk = read<BulkCreateRequest>(openapi_examples::bulk_request, options);
    REQUIRE(bulk.ok());
    for (const auto& item : bulk.value().customers)
        CHECK(item.ok());
    CHECK(read<BulkResult>(openapi_examples::bulk_result, options).ok());
    CHECK(read<CallRequest>(openapi_examples::call_request, options).ok());
    CHECK(read<Call>(openapi_examples::call, options).ok());
    CHECK(read<ErrorEnvelope<>>(openapi_examples::validation_failed, options).ok());
}
