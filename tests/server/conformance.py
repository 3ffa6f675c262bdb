#!/usr/bin/env python3
"""Conformance with the hosted service (API.md): drives a real collectcall-server through the
main flows (create, bulk, patch, a call placed and one blocked, its webhooks received by a
receiver here, and the operations of API.md section 13: bulk calls, signed recording links,
clients, SMS and e-mail imports, generated messages, analyses; and section 15's drip campaigns
and their webhooks) and checks every response body and every webhook body against the component
schemas of the hosted service's own OpenAPI document, read in place from
../shared/reference/hosted-openapi.json (OpenAPI 3.0: `$ref` resolved, `nullable` honoured),
plus the texts API.md lists word for word.

An optional member the server has no value for is sent as null (API.md section 1), which the
hosted schemas do not say for every member: a null in a member that is not required is read as
that member being absent, as the hosted service's generated clients read it. A required member
may be null only where the document says `nullable`.

Usage: conformance.py SERVER_BINARY [HOSTED_OPENAPI_JSON]. Without the document the test says
so and fails when CI is set, else exits 77 (skipped).
"""

import copy
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import jsonschema

FROZEN = "2026-11-20T15:00:00Z"  # 09:00 in Chicago
CHECKS = {
    "is-active": ("Is Active", "Check if customer is active"),
    "cease-and-desist-exclusion": (
        "Cease and Desist Exclusion",
        "Prevent calling customers who have requested cease and desist",
    ),
    "four-voice-call-per-day": (
        "Four Voice Call Per Day",
        "Check if customer has had four or fewer voice calls today within the current "
        "respectful hours window",
    ),
    "respectful-hours": (
        "Respectful Hours Check",
        "Check if the customer's local time is within respectful hours",
    ),
}

problems = []
checked = 0


def problem(text):
    problems.append(text)


# ---- the hosted document as JSON Schema -----------------------------------------------------

# Required members of the hosted schemas that API.md decides may be null.
NULL_BY_API_MD = {
    # Section 7: a failed bulk item's externalId is null when the item had none.
    ("BulkCustomerFailure", "externalId"),
}


def to_json_schema(node, components, seen=()):
    """OpenAPI 3.0 schema -> JSON Schema: $ref inlined, nullable as a null type, and optional
    members allowed to be null (see the module's docstring)."""
    if isinstance(node, list):
        return [to_json_schema(n, components, seen) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return {}
        return to_json_schema(components[name], components, seen + (name,))
    out = {}
    for key, value in node.items():
        if key in ("discriminator", "example", "examples", "nullable", "xml"):
            continue
        if key == "properties":
            required = set(node.get("required", []))
            props = {}
            owner = seen[-1] if seen else None
            for name, schema in value.items():
                converted = to_json_schema(schema, components, seen)
                if name not in required or (owner, name) in NULL_BY_API_MD:
                    converted = {"anyOf": [converted, {"type": "null"}]}
                props[name] = converted
            out[key] = props
        else:
            out[key] = to_json_schema(value, components, seen)
    if node.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


class Hosted:
    def __init__(self, document):
        self.document = document
        self.components = document["components"]["schemas"]

    def schema(self, name):
        return to_json_schema(self.components[name], self.components, (name,))

    def check(self, name, body, what):
        global checked
        checked += 1
        validator = jsonschema.Draft202012Validator(self.schema(name))
        for error in validator.iter_errors(body):
            path = "/" + "/".join(str(p) for p in error.absolute_path)
            problem(f"{what}: not a hosted {name} at {path}: {error.message[:200]}")


# ---- a webhook receiver ---------------------------------------------------------------------

class Receiver:
    def __init__(self):
        self.bodies = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                with receiver.lock:
                    receiver.bodies.append(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, count, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            with self.lock:
                if len(self.bodies) >= count:
                    return list(self.bodies)
            time.sleep(0.05)
        with self.lock:
            return list(self.bodies)


# ---- the server -----------------------------------------------------------------------------

class Server:
    def __init__(self, binary, directory, window=None):
        db = os.path.join(directory, "conformance.db")
        init = [binary, "init", "--db", db, "--account", "conformance", "--campaign",
                "conf=call@0,sms@0"]
        if window:
            init += ["--respectful-hours", window]
        out = subprocess.run(init, check=True, capture_output=True, text=True).stdout
        self.credentials = json.loads(out.strip().splitlines()[-1])
        self.process = subprocess.Popen(
            [binary, "serve", "--db", db, "--listen", "127.0.0.1:0", "--now", FROZEN,
             "--call-step-ms", "50", "--allow-private-webhooks", "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.port = None
        deadline = time.time() + 20
        while self.port is None and time.time() < deadline:
            line = self.process.stdout.readline() or self.process.stderr.readline()
            if "127.0.0.1:" in line:
                self.port = int(line.split("127.0.0.1:")[1].split()[0].rstrip("/"))
        if self.port is None:
            raise RuntimeError("the server did not say where it listens")
        self.base = f"http://127.0.0.1:{self.port}/api/v1"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)

    def request(self, method, path, body=None, key=True):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("Authorization", "Bearer " + self.credentials["apiKey"])
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def expect(condition, text):
    global checked
    checked += 1
    if not condition:
        problem(text)


def customer(external_id, zip_code="60606", state="IL", phone="+13125550147"):
    return {
        "externalId": external_id, "firstName": "Maria", "lastName": "Garcia",
        "email": "maria@example.com", "primaryPhone": phone,
        "address": {"line1": "233 S Wacker Dr", "city": "Chicago", "state": state,
                    "zip": zip_code},
        "ssnLastFour": "6789", "dateOfBirth": "1984-07-12",
        "collections": {"totalBalance": 1234.56, "extensions": {"tier": "gold"}},
    }


def hosted_example_request(document, path):
    """The data of the hosted 200 example of POST `path`, without what only responses have."""
    example = document["paths"][path]["post"]["responses"]["200"]["content"][
        "application/json"]["example"]
    return example["data"]


def run(binary, document):
    hosted = Hosted(document)
    with tempfile.TemporaryDirectory() as directory:
        server = Server(binary, directory)
        try:
            flows(server, hosted, document)
        finally:
            server.stop()
    with tempfile.TemporaryDirectory() as directory:
        # A window that has closed at the frozen time everywhere: a call is blocked.
        server = Server(binary, directory, window="08:00-08:30")
        try:
            blocked(server, hosted)
        finally:
            server.stop()


def flows(server, hosted, document):
    agent = server.credentials["agentId"]

    # The hosted document's own example, as a request body.
    example = copy.deepcopy(hosted_example_request(document, "/customers"))
    example.pop("id", None)
    status, body = server.request("POST", "/customers", example)
    expect(status == 200, f"the hosted example customer: {status} {body.get('error')}")
    hosted.check("UpdateCustomerResponse", body, "POST /customers (hosted example)")

    status, body = server.request("POST", "/customers", customer("conf-1"))
    expect(status == 200, f"POST /customers: {status}")
    hosted.check("UpdateCustomerResponse", body, "POST /customers")
    customer_id = body["data"]["id"]

    status, body = server.request("POST", "/customers", customer("conf-1"))
    expect(status == 409, f"duplicate: {status}")
    expect(body.get("publicFacingMessage") ==
           "A customer with external ID 'conf-1' already exists.", f"409 text: {body}")

    status, body = server.request("POST", "/customers", customer("conf-x"), key=False)
    expect(status == 401, f"no key: {status}")
    expect(body.get("publicFacingMessage") ==
           "Unauthorized. Make sure to pass the correct authorization token.", f"401: {body}")

    status, body = server.request("PATCH", "/customers/" + "0" * 8 + "-0000-4000-8000-" + "0" * 12,
                                  {"firstName": "X"})
    expect(status == 404 and body.get("publicFacingMessage") == "Customer not found",
           f"404: {status} {body}")

    bulk_items = [customer("conf-2"), customer("conf-1"), dict(customer("conf-3"), email="no")]
    status, body = server.request("POST", "/customers/bulk", {"customers": bulk_items})
    expect(status == 200, f"bulk: {status}")
    hosted.check("BulkCreateCustomersResponse", body, "POST /customers/bulk")
    results = body["data"]["results"]
    expect(results[1].get("error") == "Customer with external ID 'conf-1' already exists",
           f"bulk duplicate text: {results[1]}")

    status, body = server.request("PATCH", "/customers/" + customer_id,
                                  {"middleName": "Elena", "collections": {"extensions": {"x": 1}}})
    expect(status == 200, f"PATCH: {status}")
    hosted.check("UpdateCustomerResponse", body, "PATCH /customers/{id}")

    receiver = Receiver()
    call = {"agentId": agent, "webhook": {"url": f"http://127.0.0.1:{receiver.port}/hook"}}
    status, body = server.request("POST", f"/customers/{customer_id}/calls", call)
    expect(status == 200, f"call: {status} {body.get('error')}")
    hosted.check("CreateCallResponse", body, "POST /customers/{id}/calls")
    for check in body["data"]["compliance"]["checksPassed"]:
        name, description = CHECKS.get(check["id"], (None, None))
        expect(check["name"] == name and check["description"] == description,
               f"check wording: {check}")
    reasons = {c["id"]: c["reason"] for c in body["data"]["compliance"]["checksPassed"]}
    expect(reasons.get("is-active") == "Customer is active", f"reasons: {reasons}")
    expect(reasons.get("cease-and-desist-exclusion") ==
           "Customer has not requested cease and desist", f"reasons: {reasons}")
    expect(reasons.get("four-voice-call-per-day") ==
           "Customer has had 0 voice calls today within respectful hours window "
           "(America/Chicago), within the limit of 4", f"reasons: {reasons}")

    events = receiver.wait(2)
    expect(len(events) >= 2, f"webhooks received: {len(events)}")
    check_webhooks(hosted, events, "webhook")
    receiver.server.shutdown()
    hosted_operations(server, hosted)
    drip_campaigns(server, hosted)


def check_webhooks(hosted, events, what):
    """Each body against the hosted schema of its type and the union of its family."""
    for event in events:
        schemas = WEBHOOK_SCHEMAS.get(event.get("type") if isinstance(event, dict) else None)
        expect(schemas is not None, f"{what} type: {event.get('type')}")
        for name in schemas or ():
            hosted.check(name, event, f"{what} {event['type']}")


def drip_campaigns(server, hosted):
    """API.md section 15 on the frozen clock: a campaign of a call and an SMS due at once runs
    both steps, each webhook a hosted DripCampaignWebhook; the answers' shapes are this server's
    (the hosted document shows none), their errors the envelope's."""
    status, body = server.request("POST", "/customers", customer("conf-drip"))
    customer_id = body["data"]["id"]
    path = f"/customers/{customer_id}/drip-campaigns"
    status, body = server.request("POST", path, {"campaignName": "unknown"})
    expect(status == 400 and body["error"]["details"][0]["path"] == "/campaignName",
           f"unknown campaign: {status} {body}")
    check_error_body(body, "POST …/drip-campaigns (unknown campaign)")

    receiver = Receiver()
    webhook = {"url": f"http://127.0.0.1:{receiver.port}/drip"}
    status, body = server.request("POST", path, {"campaignName": "conf", "webhook": webhook})
    expect(status == 200 and body["data"]["status"] == "in-progress",
           f"POST …/drip-campaigns: {status} {body}")
    enrolment = body["data"]["id"]
    status, body = server.request("POST", path, {"campaignName": "conf"})
    expect(status == 409, f"enrolled twice: {status}")
    check_error_body(body, "POST …/drip-campaigns (409)")

    events = receiver.wait(3)
    receiver.server.shutdown()
    expect(sorted(e.get("type") for e in events) ==
           ["drip-campaign.call-created", "drip-campaign.call-ended", "drip-campaign.sms"],
           f"drip webhooks: {[e.get('type') for e in events]}")
    expect(all(e.get("id") == enrolment for e in events), "drip webhooks: the enrolment's id")
    check_webhooks(hosted, events, "drip webhook")

    status, body = server.request("DELETE", f"{path}/{enrolment}", {})
    expect(status == 409, f"cancel a completed campaign: {status} {body}")
    check_error_body(body, "DELETE …/drip-campaigns/{id} (409)")
    status, body = server.request("POST", path, {"campaignName": "conf"})
    status, body = server.request("DELETE", f"{path}/{body['data']['id']}",
                                  {"reason": "customer-engaged"})
    expect(status == 200 and body["data"]["status"] == "canceled",
           f"DELETE …/drip-campaigns/{{id}}: {status} {body}")
    status, body = server.request("DELETE", f"{path}/{NOBODY}", {})
    expect(status == 404, f"cancel an unknown enrolment: {status}")


NOBODY = "0f8fad5b-d9cb-469f-a165-70867728950e"


def wait_ended(server, call_id, timeout=20):
    """The call once it has ended (the server runs with --call-step-ms 50)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        status, body = server.request("GET", f"/calls/{call_id}")
        if status == 200 and body["data"]["status"] != "in-progress":
            return body["data"]
        time.sleep(0.05)
    problem(f"call {call_id} did not end")
    return None


def hosted_operations(server, hosted):
    """The operations of API.md section 13, each answer against the hosted schema of its own,
    and the hosted texts."""
    agent = server.credentials["agentId"]
    ids = []
    for n in range(3):
        status, body = server.request("POST", "/customers", customer(f"conf-h{n}"))
        ids.append(body["data"]["id"])

    # POST /calls/bulk: in order, an unknown customer failing alone.
    status, body = server.request("POST", "/calls/bulk",
                                  {"agentId": agent, "customerIds": [ids[0], NOBODY, ids[1]]})
    expect(status == 200, f"POST /calls/bulk: {status} {body.get('error')}")
    hosted.check("BulkCreateCallsResponse", body, "POST /calls/bulk")
    expect(body["data"]["summary"] == {"total": 3, "successful": 2, "failed": 1},
           f"bulk calls summary: {body['data']['summary']}")
    expect(body["data"]["results"][1].get("error") == "Customer not found",
           f"bulk calls unknown customer: {body['data']['results'][1]}")
    placed = [r["data"]["id"] for r in body["data"]["results"] if r["success"]]
    status, body = server.request("POST", "/calls/bulk",
                                  {"agentId": agent, "customerIds": [ids[2], ids[2]]})
    expect(status == 400 and body.get("publicFacingMessage") ==
           "customerIds must not contain duplicates", f"bulk duplicates: {status} {body}")

    # POST /calls/get-signed-url: the link of each call once it has ended; an unanswered call
    # has no recording. Calls go on (at most 4 a day) until one was answered.
    answered = 0
    for attempt in range(4):
        for call_id in placed:
            call = wait_ended(server, call_id)
            if call is None:
                continue
            status, body = server.request("POST", "/calls/get-signed-url", {"callId": call_id})
            if call.get("endedReason") == "customer-did-not-answer":
                expect(status == 404 and body.get("publicFacingMessage") == "Call not found",
                       f"signed url of an unanswered call: {status} {body}")
            else:
                answered += 1
                expect(status == 200, f"POST /calls/get-signed-url: {status} {body}")
                hosted.check("GetSignedUrlResponse", body, "POST /calls/get-signed-url")
        if answered:
            break
        status, body = server.request("POST", f"/customers/{ids[2]}/calls", {"agentId": agent})
        placed = [body["data"]["id"]] if status == 200 else []
    expect(answered > 0, "no call was answered: get-signed-url's 200 was not checked")
    status, body = server.request("POST", "/calls/get-signed-url", {"callId": NOBODY})
    expect(status == 404 and body.get("publicFacingMessage") == "Call not found",
           f"signed url of an unknown call: {status} {body}")

    # GET /clients, after the extension POST /clients made them.
    made = [server.request("POST", "/clients", {"name": name})[1]["data"]
            for name in ("Acme Corp", "Globex Inc")]
    status, body = server.request("GET", "/clients")
    # Newest first, as every paged list (API.md section 17).
    expect(status == 200 and body["data"] == made[::-1], f"GET /clients: {status} {body}")
    hosted.check("ClientListResponse", body, "GET /clients")

    # Interactions: imports one at a time and in bulk.
    base = f"/customers/{ids[0]}/interactions"
    sms = {"direction": "inbound", "timestamp": "2026-11-20T14:58:00Z",
           "from": "+13125550147", "to": "+12025550100", "body": "Can I speak to a person?"}
    email = {"direction": "inbound", "timestamp": "2026-11-20T14:59:00Z",
             "from": "maria@example.com", "to": ["accounts@example.com"], "subject": "Account",
             "plainTextBody": "I dispute this debt."}
    answers = {}
    for path, body_in, schema in (
            ("/sms/import", sms, "SmsImportResponse"),
            ("/sms/import/bulk", {"interactions": [sms, dict(sms, to="555")]},
             "SmsImportBulkResponse"),
            ("/email/import", email, "EmailImportResponse"),
            ("/email/import/bulk", {"interactions": [dict(email, plainTextBody=""), email]},
             "EmailImportBulkResponse"),
            ("/sms/generate", {"from": "+12025550100", "to": "+13125550147"},
             "SmsGenerateResponse"),
            ("/sms/generate", {"from": "+12025550100", "persist": False}, "SmsGenerateResponse"),
            ("/email/generate", {}, "EmailGenerateResponse"),
            ("/email/generate", {"persist": False}, "EmailGenerateResponse")):
        status, body = server.request("POST", base + path, body_in)
        expect(status == 200, f"POST …/interactions{path}: {status} {body.get('error')}")
        hosted.check(schema, body, f"POST /customers/{{id}}/interactions{path}")
        answers.setdefault(path, body)
    for path in ("/sms/import/bulk", "/email/import/bulk"):
        results = answers[path]["data"]["results"]
        expect([r["success"] for r in results] == [True, False] or
               [r["success"] for r in results] == [False, True], f"{path}: {results}")
    status, body = server.request("POST", f"/customers/{NOBODY}/interactions/sms/import", sms)
    expect(status == 404 and body.get("publicFacingMessage") == "Customer not found",
           f"import for an unknown customer: {status} {body}")
    status, body = server.request("POST", base + "/sms/generate", {"from": "+12025550100"})
    expect(status == 422 and body.get("publicFacingMessage") ==
           "The 'to' field is required when persist is true", f"generate without to: {body}")

    # POST /interactions/{id}/analyze: an inbound SMS, an e-mail; an outbound one is skipped.
    inbound = answers["/sms/import"]["data"]["id"]
    status, body = server.request("POST", f"/interactions/{inbound}/analyze", {})
    expect(status == 200 and body["data"]["outputVariables"]["human-follow-up-requested"] is True,
           f"analyze: {status} {body}")
    hosted.check("AnalyzeInteractionResponse", body, "POST /interactions/{id}/analyze")
    status, body = server.request("POST", f"/interactions/{answers['/email/import']['data']['id']}"
                                  "/analyze", {"applyOutcomes": False})
    expect(status == 200 and body["data"]["channel"] == "email", f"analyze e-mail: {body}")
    hosted.check("AnalyzeInteractionResponse", body, "POST /interactions/{id}/analyze (e-mail)")
    status, body = server.request("GET", base)
    outbound = [i["sms"]["id"] for i in body["data"]["interactions"]
                if i["channel"] == "sms" and i["sms"]["direction"] == "outbound"]
    expect(len(outbound) == 1, f"the persisted generated SMS: {outbound}")
    status, body = server.request("POST", f"/interactions/{outbound[0]}/analyze", {})
    expect(status == 400 and body.get("publicFacingMessage") == "Analysis was skipped.",
           f"analyze an outbound SMS: {status} {body}")
    status, body = server.request("POST", f"/interactions/{NOBODY}/analyze", {})
    expect(status == 404 and body.get("publicFacingMessage") == "Interaction not found",
           f"analyze an unknown interaction: {status} {body}")


def blocked(server, hosted):
    status, body = server.request("POST", "/customers", customer("conf-b"))
    customer_id = body["data"]["id"]
    status, body = server.request("POST", f"/customers/{customer_id}/calls",
                                  {"agentId": server.credentials["agentId"]})
    expect(status == 422, f"blocked call: {status}")
    hosted.check("CreateCallResponse", body, "POST /customers/{id}/calls (422)")
    expect(body["data"]["compliance"]["passed"] is False, "blocked: passed")
    expect(body.get("publicFacingMessage") ==
           "Customer not eligible for call. Failed rules: Respectful Hours Check (Customer local "
           "time is 09:00 (outside respectful hours 8am-8:30am))",
           f"422 text: {body.get('publicFacingMessage')}")
    for check in body["data"]["compliance"]["checksFailed"]:
        name, description = CHECKS.get(check["id"], (None, None))
        expect(check["name"] == name and check["description"] == description,
               f"failed check wording: {check}")


# ---- what the server test suites recorded ----------------------------------------------------

# The hosted schema of each answer a route of both services gives (API.md section 1: answers
# are enveloped; a blocked call is 422 with the call).
RECORDED_SCHEMAS = {
    ("POST", "/customers", 200): "UpdateCustomerResponse",
    ("POST", "/customers/bulk", 200): "BulkCreateCustomersResponse",
    ("PATCH", "/customers/{customerId}", 200): "UpdateCustomerResponse",
    ("POST", "/customers/{customerId}/calls", 200): "CreateCallResponse",
    ("POST", "/customers/{customerId}/calls", 422): "CreateCallResponse",
    ("POST", "/calls/bulk", 200): "BulkCreateCallsResponse",
    ("POST", "/calls/get-signed-url", 200): "GetSignedUrlResponse",
    ("GET", "/clients", 200): "ClientListResponse",
    ("POST", "/customers/{customerId}/interactions/sms/import", 200): "SmsImportResponse",
    ("POST", "/customers/{customerId}/interactions/sms/import/bulk", 200): "SmsImportBulkResponse",
    ("POST", "/customers/{customerId}/interactions/email/import", 200): "EmailImportResponse",
    ("POST", "/customers/{customerId}/interactions/email/import/bulk", 200):
        "EmailImportBulkResponse",
    ("POST", "/customers/{customerId}/interactions/sms/generate", 200): "SmsGenerateResponse",
    ("POST", "/customers/{customerId}/interactions/email/generate", 200): "EmailGenerateResponse",
    ("POST", "/interactions/{interactionId}/analyze", 200): "AnalyzeInteractionResponse",
}
# Each webhook type's hosted schema, and the union of its family.
WEBHOOK_SCHEMAS = {
    "call-created": ("CallCreatedWebhook", "CallsWebhook"),
    "call-ended": ("CallEndedWebhook", "CallsWebhook"),
    "drip-campaign.call-created": ("DripCampaignCallCreatedWebhook", "DripCampaignWebhook"),
    "drip-campaign.call-ended": ("DripCampaignCallEndedWebhook", "DripCampaignWebhook"),
    "drip-campaign.sms": ("DripCampaignSmsWebhook", "DripCampaignWebhook"),
}
# Answers of routes both services have whose body the hosted document does not describe (the
# drip campaign operations answer their enrolment, an extension: API.md section 15).
UNDESCRIBED_ANSWERS = {
    ("POST", "/customers/{customerId}/drip-campaigns", 200),
    ("DELETE", "/customers/{customerId}/drip-campaigns/{dripCampaignId}", 200),
}


def hosted_route(document, method, path):
    """The hosted document's path template that `path` (under /api/v1, query stripped) is an
    instance of for `method`, or None."""
    prefix = "/api/v1"
    path = path.split("?", 1)[0]
    if not path.startswith(prefix + "/"):
        return None
    segments = path[len(prefix):].split("/")
    for template, operations in document["paths"].items():
        if method.lower() not in operations:
            continue
        parts = template.split("/")
        if len(parts) == len(segments) and all(
                p == s or (p.startswith("{") and p.endswith("}") and s)
                for p, s in zip(parts, segments)):
            return template
    return None


def check_error_body(body, what):
    """An error answer: the hosted examples' members (requestId, success false) and the error
    object of API.md section 3."""
    expect(isinstance(body.get("requestId"), str) and len(body["requestId"]) == 36,
           f"{what}: requestId {body.get('requestId')!r}")
    expect(body.get("success") is False, f"{what}: success is not false")
    error = body.get("error")
    expect(isinstance(error, dict) and isinstance(error.get("code"), str) and
           isinstance(error.get("message"), str) and isinstance(error.get("details"), list),
           f"{what}: error {error!r}"[:300])
    if isinstance(error, dict):
        for detail in error.get("details") or []:
            expect(isinstance(detail, dict) and {"path", "code", "message"} <= detail.keys() and
                   (detail["path"] == "" or detail["path"].startswith("/")),
                   f"{what}: detail {detail!r}"[:300])


def check_recorded(files, document):
    hosted = Hosted(document)
    counts = {"answers": 0, "against a hosted schema": 0, "errors": 0, "webhooks": 0}
    for name in files:
        if not os.path.exists(name):
            problem(f"{name}: nothing was recorded (did the server tests run?)")
            continue
        with open(name, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                entry = json.loads(line)
                if "webhook" in entry:
                    event = entry["webhook"]
                    schemas = WEBHOOK_SCHEMAS.get(event.get("type") if isinstance(event, dict)
                                                  else None)
                    if schemas:
                        counts["webhooks"] += 1
                        for schema in schemas:
                            hosted.check(schema, event, f"{name}:{number} webhook {event['type']}")
                    continue
                counts["answers"] += 1
                method, status, body = entry["method"], entry["status"], entry["body"]
                template = hosted_route(document, method, entry["path"])
                what = f"{name}:{number} {method} {entry['path'][:80]} {status}"
                if template is None or not isinstance(body, dict):
                    continue  # a route of this server only (API.md section 1 decides those)
                schema = RECORDED_SCHEMAS.get((method, template, status))
                if (method, template, status) in UNDESCRIBED_ANSWERS:
                    continue
                if schema:
                    counts["against a hosted schema"] += 1
                    hosted.check(schema, body, what)
                elif status >= 400:
                    counts["errors"] += 1
                    check_error_body(body, what)
                else:
                    problem(f"{what}: a status the hosted document does not give")
    print(", ".join(f"{n} {k}" for k, n in counts.items()))
    # The suites exercise every schema named above; a recording without them checked nothing.
    expect(counts["against a hosted schema"] > 0 and counts["webhooks"] > 0 and counts["errors"] > 0,
           f"the recordings hold too little to check: {counts}")


def main():
    if len(sys.argv) < 2:
        print("usage: conformance.py SERVER_BINARY [HOSTED_OPENAPI_JSON]\n"
              "       conformance.py --recorded HOSTED_OPENAPI_JSON FILE...", file=sys.stderr)
        return 2
    if sys.argv[1] == "--recorded":
        path = os.environ.get("COLLECTCALL_HOSTED_OPENAPI", sys.argv[2] if len(sys.argv) > 2 else "")
        if not path or not os.path.exists(path):
            print(f"the hosted service's OpenAPI document is missing ({path or 'no path given'})",
                  file=sys.stderr)
            return 1 if os.environ.get("CI") else 77
        with open(path) as f:
            document = json.load(f)
        check_recorded(sys.argv[3:], document)
        for text in problems:
            print("FAIL:", text)
        print(f"{checked} checks, {len(problems)} problems")
        return 1 if problems else 0
    binary = sys.argv[1]
    path = sys.argv[2] if len(sys.argv) > 2 else ""
    path = os.environ.get("COLLECTCALL_HOSTED_OPENAPI", path)
    if not path or not os.path.exists(path):
        print(f"the hosted service's OpenAPI document is missing ({path or 'no path given'}): "
              "it is read in place from ../shared/reference/hosted-openapi.json",
              file=sys.stderr)
        return 1 if os.environ.get("CI") else 77
    with open(path) as f:
        document = json.load(f)
    run(binary, document)
    for text in problems:
        print("FAIL:", text)
    print(f"{checked} checks, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
