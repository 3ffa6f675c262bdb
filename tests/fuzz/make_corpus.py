#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets: tests/fuzz/corpus/<target>/.

    python3 tests/fuzz/make_corpus.py            # rewrite the corpus
    python3 tests/fuzz/make_corpus.py --check    # exit 1 if the corpus differs from this script

Each model target gets small valid documents of its models and invalid variants of them (a
member missing, of the wrong type or badly formatted, unknown and duplicate members, escapes,
Unicode, numbers at the edges, malformed JSON). The values target gets texts for each value type,
prefixed with the byte that selects the type (fuzz_values.cpp). The server target gets what a
client connection sends: a request to each route of docs/server.md, and malformed, oversized,
chunked, pipelined and otherwise unusual ones, with the placeholders of fuzz_server.cpp (@KEY@,
@ID@, @AGENT@) where the API key, the customer's id and the agentId go. The files are
deterministic.
"""

import argparse
import copy
import gzip
import hashlib
import json
import re
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"

UUID = "3f2b8c1e-9a4d-4c6b-8e2f-1a2b3c4d5e6f"
UUID2 = "0E7A9D5C-1B2F-4A3E-9C8D-7F6E5D4C3B2A"


def num(text: str) -> str:
    """A number written exactly as `text` (Python's floats would round or refuse it)."""
    return f"\x01{text}\x01"


def raw_numbers(text: str) -> str:
    return re.sub(r'"\\u0001([^"]*)\\u0001"', r"\1", text)


def compact(value) -> str:
    return raw_numbers(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def pretty(value) -> str:
    return raw_numbers(json.dumps(value, indent=2, ensure_ascii=True))


ADDRESS = {"line1": "1 Main St", "line2": "Apt 2", "city": "Springfield", "state": "IL",
           "zip": "62701"}
COLLECTIONS = {
    "totalBalance": num("1234.56"), "principalBalance": 1000, "originalCreditor": "First Bank",
    "accruedInterestAmount": 0.5, "chargeOffDate": "2024-01-31",
    "firstDelinquencyDate": "2023-12-01", "settlementAggregationRate": 0.25,
    "originalAccountNumber": "ACC-0001", "itemizationBalance": num("1e2"),
    "postItemizationInterest": num("-0"), "postItemizationFees": 12.5, "postItemizationCredits": num("1.50"),
    "postItemizationPayments": num("9007199254740992"), "productType": "credit card",
    "originalProductType": "loan",
}
CUSTOMER_CREATE = {
    "externalId": "ext-001", "firstName": "Ann", "middleName": None, "lastName": "Lee",
    "email": "ann.lee@example.com", "primaryPhone": "+14155550100", "secondaryPhone": None,
    "address": ADDRESS, "ssnLastFour": "1234", "dateOfBirth": "1980-02-29",
    "collections": COLLECTIONS,
}
CUSTOMER = dict(CUSTOMER_CREATE, id=UUID, createdAt="2025-01-02T03:04:05.678Z",
                updatedAt="2025-01-02T03:04:05.678Z")
CUSTOMER_PATCH = {"firstName": "Bo", "middleName": None, "address": {"zip": "12345-6789"},
                  "collections": {"totalBalance": 5, "productType": None}}

CHECK = {"id": "respectful-hours", "name": "Respectful hours",
         "description": "Calls only between 8am and 9pm local time", "reason": "14:05 local"}
COMPLIANCE = {"passed": True, "checksPassed": [CHECK], "checksFailed": []}
CALL = {"id": UUID, "threadId": UUID2, "toPhoneNumber": "+14155550100",
        "fromPhoneNumber": "+12125550199", "compliance": COMPLIANCE,
        "createdAt": "2025-06-01T15:00:00Z"}
CALL_DETAILS = dict(CALL, customerId=UUID, status="completed", endedReason="customer-ended-call",
                    durationMs=61000,
                    events=[{"type": "call-created", "createdAt": "2025-06-01T15:00:00Z"},
                            {"type": "call-ended", "createdAt": "2025-06-01T15:01:01.000Z"}])
CALL_REQUEST = {"agentId": "agent-7",
                "webhook": {"url": "https://hooks.example.com/cc?x=1", "secretId": UUID}}
WEBHOOK_EVENT = {"type": "call-ended", "id": UUID, "customerId": UUID, "threadId": UUID2,
                 "status": "completed", "createdAt": "2025-06-01T15:01:01Z",
                 "callEnded": {"endedReason": "customer-ended-call", "durationMs": 61000}}
WEBHOOK_SECRET = {"id": UUID, "secret": "whsec_0123456789abcdef"}

ERROR_BODY = {"code": "validation_failed", "message": "2 fields are invalid",
              "details": [{"path": "/email", "code": "format", "message": "must be an e-mail"},
                          {"path": "/a~1b~0c", "code": "unknown_field",
                           "message": "is not a known member"}]}
BULK_RESULT = {
    "summary": {"total": 2, "succeeded": 1, "failed": 1},
    "results": [
        {"success": True, "customer": CUSTOMER},
        {"externalId": "ext-002", "success": False,
         "error": "validation failed: /email: must be an e-mail", "details": ERROR_BODY["details"]},
        {"externalId": None, "success": False, "error": "validation failed", "details": []},
    ],
}


def envelope(data):
    return {"requestId": UUID, "success": True, "data": data}


def error_envelope(data=None):
    return {"requestId": UUID, "success": False, "data": data, "error": ERROR_BODY,
            "publicFacingMessage": ERROR_BODY["message"]}


# Values that break a member in each way a reader must notice.
WRONG_TYPES = [None, 42, -1.5, True, "text", [], [1, "a"], {}, {"x": {"y": []}}]


def variants(name: str, valid: dict, bad: dict, max_bad: int = 3) -> dict:
    """Documents derived from `valid`: each member missing, of the wrong type, badly formatted."""
    docs = {f"{name}-valid": compact(valid)}
    keys = list(valid)
    for i, key in enumerate(keys):
        if i % 2 == 0:
            dropped = {k: v for k, v in valid.items() if k != key}
            docs[f"{name}-missing-{key}"] = compact(dropped)
        if i % 3 == 0:
            docs[f"{name}-type-{key}"] = compact(dict(valid, **{key: WRONG_TYPES[i // 3 % len(WRONG_TYPES)]}))
    for key, values in bad.items():
        for j, value in enumerate(values):
            doc = copy.deepcopy(valid)
            target = doc
            path = key.split(".")
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
            docs[f"{name}-bad-{key}-{j}"] = compact(doc)
            if j + 1 == max_bad:
                break
    text = compact(valid)
    first = keys[0]
    docs[f"{name}-unknown"] = text[:-1] + ',"nickname":"x","a/b~c":[1,{"d":null}]}'
    docs[f"{name}-duplicate"] = "{" + f'"{first}":{compact(valid[first])},' + text[1:]
    docs[f"{name}-reordered"] = compact(dict(reversed(list(valid.items()))))
    escaped = "".join(f"\\u{ord(c):04x}" if i == 1 else c for i, c in enumerate(first))
    docs[f"{name}-escaped-key"] = text.replace(f'"{first}"', f'"{escaped}"', 1)
    docs[f"{name}-truncated"] = text[: len(text) * 2 // 3]
    return docs


TEXTS = ["José", "李小龙", "🙂", "  Ann  ", "\u00a0\u3000", "", " ", "a\u0000b", "tab\there",
         "\u007f", "x" * 201, "é" * 200, "quote\"back\\slash</script>", "\u2028\u2029",
         "Robert'); DROP TABLE customers;--"]
MONEY = [num("-0.0"), num("1.50e1"), num("-1"), num("9007199254740993"), num("1e400"),
         num("0.00000000000000000001"), num("1.2345678901234567890123"), "12"]
DATES = ["2023-02-29", "2024-02-29", "1899-12-31", "1900-01-01", "2100-12-31", "2101-01-01",
         "2025-06-15", "2025-06-16", "2030-01-01", "2024-2-29", "20240229", "2024-13-01", ""]
PHONES = ["+1", "+12", "+123456789012345", "+1234567890123456", "+04155550100", "14155550100",
          "+1 415 555 0100", "+１４１５"]
EMAILS = ["a@b", "a..b@x", "@x.com", "a@-x.com", "a@x-.com", "a@x.com.", "a@@x", "a b@x.com",
          "a@" + "x" * 64 + ".com", "x" * 250 + "@x.com"]
TIMESTAMPS = ["2025-06-01T15:00:00Z", "2025-06-01t15:00:00.123456789z", "2025-06-01T10:00:00-05:00",
              "0000-01-01T00:30:00+01:00", "9999-12-31T23:59:59-00:01", "2016-12-31T23:59:60Z",
              "2025-06-01 15:00:00Z", "2025-06-01T15:00:00", "2025-06-01T15:00:00.Z",
              "2025-02-30T00:00:00Z"]
UUIDS = [UUID2, "3f2b8c1e9a4d4c6b8e2f1a2b3c4d5e6f", "{" + UUID + "}", "urn:uuid:" + UUID,
         UUID[:-1] + "g"]
URLS = ["http://example.com", "https://example.com:8443/a/b?c=d#e", "HTTPS://EXAMPLE.COM?q",
        "https://[2001:db8::1]:443/x", "https://[fe80::1%25eth0]/", "http://127.1/",
        "http://0x7f.0.0.1/", "https://user:pw@example.com/", "https://example.com:0/",
        "https://example.com:65536/", "https://exa mple.com/", "https://example.com/%zz",
        "ftp://example.com/", "https://" + "a" * 64 + ".com/", "https://1.2.3.999/"]


def customer_docs() -> dict:
    docs = {}
    docs.update(variants("create", CUSTOMER_CREATE, {
        "firstName": TEXTS, "email": EMAILS, "primaryPhone": PHONES,
        "ssnLastFour": ["123", "12345", "12a4", "１２３４"], "dateOfBirth": DATES,
        "address.state": ["ny", "ZZ", "N", "NYC"], "address.zip": ["1234", "12345-678", "12345 6789"],
        "collections.totalBalance": MONEY,
        "collections.chargeOffDate": DATES[:5],
    }))
    no_rule = dict(CUSTOMER_CREATE)
    del no_rule["ssnLastFour"], no_rule["dateOfBirth"]
    docs["create-conflict-both"] = compact(no_rule)
    docs["create-conflict-date"] = compact(dict(no_rule, ssnLastFour="1234"))
    docs["create-conflict-invalid-ssn"] = compact(dict(no_rule, ssnLastFour="12", dateOfBirth=None))
    docs["create-no-collections"] = compact(dict(no_rule, collections=None))
    docs["create-pretty"] = pretty(CUSTOMER_CREATE)
    docs["create-minimal"] = compact({k: CUSTOMER_CREATE[k] for k in
                                      ["externalId", "firstName", "lastName", "email",
                                       "primaryPhone", "address"]})
    docs.update(variants("customer", CUSTOMER, {
        "id": UUIDS, "createdAt": TIMESTAMPS, "collections": [None, {}, {"totalBalance": 1}],
    }))
    docs.update(variants("patch", CUSTOMER_PATCH, {
        "lastName": [None, "", "Smith"], "collections.totalBalance": [None, -1, 1.25],
        "address.state": [None, "TX", "tx"], "address": [None, {}, {"line1": None}],
    }))
    docs["patch-not-allowed"] = compact({"id": UUID, "externalId": "x", "firstName": None})
    docs["patch-empty"] = "{}"
    docs["address-valid"] = compact(ADDRESS)
    docs["address-zip4"] = compact(dict(ADDRESS, zip="62701-1234", line2=None))
    docs["collections-valid"] = compact(COLLECTIONS)
    docs["collections-minimal"] = compact({"totalBalance": "0"})
    docs.update(malformed_docs(compact(CUSTOMER_CREATE), full=True))
    docs.update(raw_docs())
    return docs


def malformed_docs(valid: str, full: bool = False) -> dict:
    """Structural errors; `full` adds the ones that do not depend on the model."""
    docs = {
        "malformed-trailing": valid + " {}",
        "malformed-array": "[" + valid + "]",
        "malformed-in-unknown": valid[:-1] + ',"unknown":[1,2,tru]}',
        "nested-65": "[" * 65 + "]" * 65,
        "scalar-string": '"text"',
    }
    if not full:
        return docs
    return docs | {
        "malformed-empty": "",
        "malformed-space": " \n\t ",
        "malformed-bare": "nul",
        "malformed-number-leading-zero": '{"totalBalance":01}',
        "malformed-number-dot": '{"totalBalance":1.}',
        "malformed-number-exp": '{"totalBalance":1e}',
        "malformed-trailing-comma": '{"a":1,}',
        "malformed-in-duplicate": '{"externalId":"a","externalId":[}',
        "malformed-string-control": '{"externalId":"a\tb"}',
        "malformed-bad-escape": '{"externalId":"\\x41"}',
        "malformed-lone-surrogate": '{"externalId":"\\ud800"}',
        "malformed-surrogate-pair": '{"externalId":"\\ud83d\\ude42"}',
        "malformed-key-surrogate": '{"\\udc00":1}',
        "malformed-two-values": valid + valid,
        "malformed-close": "]",
        "malformed-split": '1],[2',
        "nested-63": '{"x":' * 63 + "1" + "}" * 63,
        "nested-64": '{"x":' * 64 + "1" + "}" * 64,
        "nested-100-in-unknown": '{"a":' + "[" * 100 + "]" * 100 + "}",
        "big-number": '{"totalBalance":' + "9" * 400 + "}",
        "big-exponent": '{"totalBalance":1e99999999999999999999}',
        "scalar-number": "-0.0e+0",
        "scalar-true": "true",
        "scalar-null": "null",
    }


def bulk_docs() -> dict:
    bad = dict(CUSTOMER_CREATE, email="nope", address={"state": "ny"})
    docs = {
        "request-one": compact({"customers": [CUSTOMER_CREATE]}),
        "request-mixed": compact({"customers": [CUSTOMER_CREATE, bad, 5, None, {}, [],
                                                dict(CUSTOMER_CREATE, externalId="ext-002",
                                                     extra=1)]}),
        "request-empty": '{"customers":[]}',
        "request-null": '{"customers":null}',
        "request-object": '{"customers":{}}',
        "request-missing": "{}",
        "request-unknown": '{"customers":[{}],"dryRun":true}',
        "request-over-limit": compact({"customers": [{}] * 1001}),
        "request-at-limit": compact({"customers": [{}] * 1000}),
        "request-escaped-keys": '{"customers":[{"first\\u004eame":"A","a~b/c":1}]}',
        "request-malformed-item": '{"customers":[{"externalId":"a"},{"x":[}]}',
        "request-duplicate": '{"customers":[],"customers":[{}]}',
        "result-valid": compact(BULK_RESULT),
        "result-empty": compact({"summary": {"total": 0, "succeeded": 0, "failed": 0},
                                 "results": []}),
        "result-big-ints": compact({"summary": {"total": 9223372036854775807,
                                                "succeeded": -9223372036854775808,
                                                "failed": 9223372036854775808}, "results": []}),
        "result-int-min-minus-one": compact({"summary": {"total": 0, "succeeded": 0,
                                                         "failed": -9223372036854775809},
                                             "results": []}),
        "result-float-int": '{"summary":{"total":1.0,"succeeded":1e0,"failed":-0},"results":[]}',
        "result-control-chars": compact({"summary": {"total": 1, "succeeded": 0, "failed": 1},
                                         "results": [{"externalId": "a\u0000\u001f\u007f",
                                                      "success": False, "error": "\n\"\\",
                                                      "details": None}]}),
    }
    docs.update(variants("result", BULK_RESULT, {
        "summary.total": [None, "1", 1.5, -1, 18446744073709551616],
    }))
    docs.update(malformed_docs(compact({"customers": [CUSTOMER_CREATE]})))
    return docs


def call_docs() -> dict:
    docs = {}
    docs.update(variants("request", CALL_REQUEST, {
        "agentId": TEXTS[:8], "webhook.url": URLS, "webhook.secretId": UUIDS,
    }))
    docs["request-no-webhook"] = compact({"agentId": "agent-7"})
    docs["request-null-webhook"] = compact({"agentId": "agent-7", "webhook": None})
    docs["webhook-valid"] = compact(CALL_REQUEST["webhook"])
    docs.update(variants("call", CALL, {"toPhoneNumber": PHONES, "createdAt": TIMESTAMPS,
                                        "compliance.passed": [1, "true", None]}))
    docs.update(variants("details", CALL_DETAILS, {"durationMs": [-1, 1.5, 1e3, 9223372036854775808,
                                                                  None], "events": [[{}], None]}))
    docs["list-valid"] = compact({"calls": [CALL_DETAILS, CALL_DETAILS]})
    docs["list-empty"] = compact({"calls": []})
    docs["list-bad-item"] = compact({"calls": [CALL_DETAILS, {"id": "x"}]})
    docs.update(variants("event", WEBHOOK_EVENT, {"callEnded": [None, {}, {"durationMs": "1"}]}))
    docs["event-created"] = compact({k: v for k, v in WEBHOOK_EVENT.items() if k != "callEnded"})
    docs.update(variants("secret", WEBHOOK_SECRET, {"secret": ["", "\u0000", "é"]}))
    docs["compliance-valid"] = compact(COMPLIANCE)
    docs["compliance-failed"] = compact({"passed": False, "checksPassed": [],
                                         "checksFailed": [CHECK, CHECK]})
    docs["check-valid"] = compact(CHECK)
    docs["check-unicode"] = compact(dict(CHECK, reason="李小龙 🙂 \u2028"))
    docs.update(malformed_docs(compact(CALL)))
    return docs


SMS_IMPORT = {"direction": "inbound", "timestamp": "2025-06-15T11:58:00Z", "from": "+14155550100",
              "to": "+12125550199", "body": "Can you call me back?", "threadId": UUID2,
              "segments": 1}
EMAIL_IMPORT = {"direction": "outbound", "timestamp": "2025-06-15T12:04:59.999+00:00",
                "from": "ann.lee@example.com", "to": ["a@example.com", "b@example.org"],
                "cc": [], "bcc": None, "subject": "Your account", "plainTextBody": "Hello\n",
                "htmlBody": "<p>Hello</p>", "threadId": UUID, "messageId": "abc@mail.example.com"}
SMS_RECORD = {"id": UUID, "threadId": UUID2, "channel": "sms", "direction": "inbound",
              "customerId": UUID, "timestamp": "2025-06-15T11:58:00.000Z",
              "createdAt": "2025-06-15T12:00:00.000Z", "from": "+14155550100",
              "to": "+12125550199", "body": "STOP", "segments": 1}
EMAIL_RECORD = {"id": UUID, "messageId": "abc@mail.example.com", "threadId": UUID2,
                "channel": "email", "direction": "outbound", "customerId": UUID,
                "timestamp": "2025-06-15T11:58:00.000Z", "createdAt": "2025-06-15T12:00:00.000Z",
                "from": "ann.lee@example.com", "to": ["a@example.com"], "cc": [], "bcc": [],
                "subject": "Hi", "htmlBody": "<p>x</p>"}
OUTPUT_VARIABLES = {"stop-requests": True, "human-follow-up-requested": False,
                    "payment-promised": False, "dispute": False, "attorney-represented": True}
BULK_CALL_REQUEST = {"agentId": "agent-7", "customerIds": [UUID, UUID2],
                     "webhook": {"url": "https://hooks.example.com/cc", "secretId": UUID}}
SMS_BODIES = ["", " ", "a" * 1600, "a" * 1601, "🙂" * 1600, "🙂" * 1601, "line\r\nbreak\f",
              "bell\u0007", "\u007f", "{[€]}"]


def interaction_docs() -> dict:
    docs = {}
    docs.update(variants("sms", SMS_IMPORT, {
        "timestamp": TIMESTAMPS + ["2025-06-15T12:05:00Z", "2025-06-15T12:05:00.001Z"],
        "body": SMS_BODIES, "segments": [0, 255, 256, 1.5, -1, "1"], "direction": ["sent", ""],
    }, max_bad=12))
    docs.update(variants("email", EMAIL_IMPORT, {
        "plainTextBody": ["", " ", None], "htmlBody": ["", "\t", None],
        "to": [[], ["x"] * 2, ["a@b"] * 51, None], "cc": [["bad@"], ["a@b"] * 51],
        "subject": TEXTS[:6], "threadId": ["thread-1"] + UUIDS,
    }, max_bad=6))
    docs["email-no-bodies"] = compact({k: v for k, v in EMAIL_IMPORT.items()
                                       if k not in ("plainTextBody", "htmlBody")})
    docs["email-empty-bodies"] = compact(dict(EMAIL_IMPORT, plainTextBody="", htmlBody=" "))
    docs["sms-bulk"] = compact({"interactions": [SMS_IMPORT, {}, dict(SMS_IMPORT, body=""), 5]})
    docs["sms-bulk-empty"] = compact({"interactions": []})
    docs["sms-bulk-over"] = compact({"interactions": [SMS_IMPORT] * 101})
    docs["email-bulk"] = compact({"interactions": [EMAIL_IMPORT, dict(EMAIL_IMPORT, htmlBody=None,
                                                                      plainTextBody=None)]})
    docs["generate-sms"] = compact({"from": "+14155550100", "to": "+12125550199",
                                    "persist": False, "threadId": UUID})
    docs["generate-sms-bad"] = compact({"from": "x", "persist": "yes", "threadId": 1})
    docs["generate-email"] = compact({"persist": None, "threadId": UUID2})
    docs["analyze-empty"] = "{}"
    docs["analyze-false"] = '{"applyOutcomes":false}'
    docs["analyze-bad"] = '{"applyOutcomes":0,"x":1}'
    docs["client-create"] = compact({"name": "Acme Corp", "id": UUID})
    docs["client-list"] = compact([{"id": UUID, "name": "Acme"}, {"id": UUID2, "name": "李"}])
    docs["signed-url"] = compact({"callId": UUID2})
    docs.update(variants("bulk-call", BULK_CALL_REQUEST, {
        "customerIds": [[], [UUID, UUID], [UUID, UUID2.lower(), UUID2], [UUID] * 101, ["x", UUID],
                        None],
    }, max_bad=6))
    docs.update(variants("sms-record", SMS_RECORD, {"channel": ["email", "voice"]}))
    docs.update(variants("email-record", EMAIL_RECORD, {"messageId": [None, ""]}))
    docs["analysis"] = compact({"interactionId": UUID, "channel": "voice",
                                "outputVariables": OUTPUT_VARIABLES})
    docs["analysis-bad-variables"] = compact({
        "interactionId": UUID, "channel": "sms",
        "outputVariables": dict(OUTPUT_VARIABLES, mood=1, dispute=None)})
    docs["analysis-duplicate-variable"] = (
        '{"interactionId":"' + UUID + '","channel":"sms","outputVariables":'
        '{"dispute":true,"dispute":false}}')
    docs["sms-bulk-result"] = compact({
        "summary": {"total": 2, "succeeded": 1, "failed": 1},
        "results": [{"success": True, "interaction": SMS_RECORD},
                    {"success": False, "index": 1, "error": "validation failed",
                     "details": ERROR_BODY["details"]}]})
    docs["bulk-call-result"] = compact({
        "summary": {"total": 2, "successful": 1, "failed": 1},
        "results": [{"customerId": UUID, "success": True, "data": CALL},
                    {"customerId": UUID2, "success": False, "error": "Customer not found",
                     "compliance": COMPLIANCE}]})
    docs.update(malformed_docs(compact(SMS_IMPORT)))
    return docs


def envelope_docs() -> dict:
    docs = {
        "customer": compact(envelope(CUSTOMER)),
        "details": compact(envelope(CALL_DETAILS)),
        "list": compact(envelope({"calls": [CALL_DETAILS]})),
        "bulk-result": compact(envelope(BULK_RESULT)),
        "secret": compact(envelope(WEBHOOK_SECRET)),
        "error-null": compact(error_envelope()),
        "error-call": compact(error_envelope(CALL)),
        "error-body": compact(ERROR_BODY),
        "error-body-empty": compact({"code": "", "message": "", "details": []}),
    }
    docs.update(variants("envelope", envelope(CUSTOMER), {
        "requestId": UUIDS, "success": [False, None, 0], "data.email": EMAILS[:4],
    }))
    docs.update(variants("error", error_envelope(), {
        "data": [None, {}, CALL], "error.details": [None, [{}], [{"path": 1}]],
    }))
    docs.update(malformed_docs(compact(envelope(CUSTOMER))))
    return docs


# Type selectors of fuzz_values.cpp: the first byte modulo 12.
VALUE_TYPES = ["text", "email", "e164", "zip", "uuid", "date", "pastdate", "timestamp", "url",
               "digits", "state", "money"]


def value_docs() -> dict:
    texts = {
        "text": TEXTS + ["\ud7ff\ue000\U0010ffff"],
        "email": EMAILS + ["ann.lee@example.com", "o'brien+tag@sub.example.co.uk"],
        "e164": PHONES + ["+14155550100"],
        "zip": ["62701", "62701-1234", "6270", "62701-", "６２７０１"],
        "uuid": UUIDS + [UUID],
        "date": DATES,
        "pastdate": DATES,
        "timestamp": TIMESTAMPS,
        "url": URLS,
        "digits": ["1234", "123", "12345", "12a4", "１２３４", ""],
        "state": ["NY", "ny", "DC", "AE", "ZZ", "N", "NYC"],
        "money": ["0", "-0", "-0.0e5", "1e2", "1.50", "15e-1", "-1", "9007199254740992",
                  "9007199254740992.0", "9007199254740993", "9007199254740992.5", "1e400",
                  "1e-400", "0.0000000000000000001", "0.00000000000000000001",
                  "1234567890123456789", "12345678901234567890", "1.2345678901234567890",
                  "123456789012345.6789", "1E+15", "0.1e-18", "+1", ".5", "01", "1.", " 1",
                  "1e99999999999999999999", "100e-2"],
    }
    docs = {}
    for selector, name in enumerate(VALUE_TYPES):
        for i, text in enumerate(texts[name]):
            if i % 2 == 0 or len(texts[name]) <= 10:
                docs[f"{name}-{i:02d}"] = bytes([selector]) + text.encode("utf-8", "surrogatepass")
    return docs


def raw_docs() -> dict:
    """Bytes that no Python string spells: invalid UTF-8 in strings and keys."""
    return {
        "utf8-invalid-value": b'{"externalId":"\xff\xfe"}',
        "utf8-overlong": b'{"firstName":"\xc0\xaf"}',
        "utf8-surrogate": b'{"firstName":"\xed\xa0\x80"}',
        "utf8-truncated": b'{"firstName":"\xe6\x9d"}',
        "utf8-invalid-key": b'{"\xff":1}',
        "utf8-bom": b'\xef\xbb\xbf{}',
        "nul-byte": b'{"externalId":"a"}\x00',
    }


# What fuzz_server.cpp puts in place of each placeholder is this many bytes long (an API key,
# a UUID), so that a seed's Content-Length is right once they are replaced.
PLACEHOLDERS = {b"@KEY@": 64, b"@ID@": 36, b"@AGENT@": 36}


def served_length(data: bytes) -> int:
    return len(data) + sum(data.count(p) * (n - len(p)) for p, n in PLACEHOLDERS.items())


def request(method: str, target: str, body=None, headers=(), key: str = "@KEY@",
            content_type: str = "application/json", length: bool = True) -> bytes:
    """One HTTP/1.1 request; `body` (str or bytes) gets a Content-Length unless told otherwise."""
    lines = [f"{method} {target} HTTP/1.1", "Host: fuzz"]
    if key is not None:
        lines.append(f"Authorization: Bearer {key}")
    data = b""
    if body is not None:
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        if content_type:
            lines.append(f"Content-Type: {content_type}")
        if length:
            lines.append(f"Content-Length: {served_length(data)}")
    lines.extend(headers)
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + data


def chunked(*chunks: bytes) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"


SERVER_CUSTOMER = {
    "externalId": "seed-1", "firstName": "Ann", "lastName": "Lee", "email": "ann@example.com",
    "primaryPhone": "+12125550123",
    "address": {"line1": "1 Main St", "city": "New York", "state": "NY", "zip": "10001"},
}


SERVER_SMS = {"direction": "inbound", "timestamp": "2026-11-20T14:58:00Z",
              "from": "+12125550123", "to": "+12025550100", "body": "STOP"}
SERVER_EMAIL = {"direction": "inbound", "timestamp": "2026-11-20T14:59:00Z",
                "from": "ann@example.com", "to": ["accounts@example.com"],
                "subject": "My account", "plainTextBody": "Please call me back."}


def server_docs() -> dict:
    customers = "/api/v1/customers"
    one = "/api/v1/customers/@ID@"
    customer = compact(SERVER_CUSTOMER)
    other = compact(dict(SERVER_CUSTOMER, externalId="seed-2"))
    unknown_id = "/api/v1/customers/" + UUID
    call = compact({"agentId": "@AGENT@"})
    docs = {
        # Every route of docs/server.md.
        "healthz": request("GET", "/healthz", key=None),
        "openapi": request("GET", "/api/v1/openapi.json", key=None),
        "create": request("POST", customers, customer),
        "create-collections": request("POST", customers, compact(dict(
            CUSTOMER_CREATE, externalId="seed-3", primaryPhone="+12125550124",
            address=SERVER_CUSTOMER["address"]))),
        "create-idempotent-twice": request("POST", customers, other,
                                           ["Idempotency-Key: seed-key-1"]) * 2,
        "bulk": request("POST", customers + "/bulk", compact({"customers": [
            dict(SERVER_CUSTOMER, externalId="seed-bulk-1"),
            dict(SERVER_CUSTOMER, externalId="seed-bulk-2", email="nope"), {}, 5]})),
        "bulk-empty": request("POST", customers + "/bulk", '{"customers":[]}'),
        "get": request("GET", one),
        "get-unknown": request("GET", unknown_id),
        "get-not-uuid": request("GET", customers + "/not-a-uuid"),
        "lookup": request("GET", customers + "?externalId=fuzz-1"),
        "lookup-missing": request("GET", customers),
        "lookup-unknown-param": request("GET", customers + "?externalId=a&externalId=b&x=1"),
        "patch": request("PATCH", one, '{"middleName":"Q","address":{"line2":null}}',
                         content_type="application/merge-patch+json"),
        "patch-invalid": request("PATCH", one, '{"lastName":null,"email":"x"}'),
        "call": request("POST", one + "/calls", call),
        "call-agent-unknown": request("POST", one + "/calls", compact({"agentId": "agent-7"})),
        "call-webhook": request("POST", one + "/calls", compact({
            "agentId": "@AGENT@",
            "webhook": {"url": "https://203.0.113.7/hook", "secretId": UUID}})),
        "call-webhook-private": request("POST", one + "/calls", compact({
            "agentId": "@AGENT@", "webhook": {"url": "http://127.0.0.1:9/x", "secretId": UUID}})),
        "calls": request("GET", one + "/calls"),
        "call-get-unknown": request("GET", "/api/v1/calls/" + UUID),
        "deactivate-activate": request("POST", one + "/deactivate", "")
        + request("POST", one + "/activate", "{}"),
        "cease-and-desist-unknown": request("POST", unknown_id + "/cease-and-desist", None),
        "cease-and-desist-body": request("POST", unknown_id + "/cease-and-desist", '{"x":1}'),
        "webhook-secret": request("POST", "/api/v1/webhook-secrets", None),
        "webhook-secret-empty-object": request("POST", "/api/v1/webhook-secrets", "{}"),
        # The operations of API.md section 13.
        "calls-bulk": request("POST", "/api/v1/calls/bulk", compact(
            {"agentId": "@AGENT@", "customerIds": ["@ID@", UUID]})),
        "calls-bulk-duplicates": request("POST", "/api/v1/calls/bulk", compact(
            {"agentId": "@AGENT@", "customerIds": ["@ID@", "@ID@"]})),
        "calls-bulk-get": request("GET", "/api/v1/calls/bulk"),
        "signed-url": request("POST", "/api/v1/calls/get-signed-url", compact({"callId": UUID})),
        "clients": request("POST", "/api/v1/clients", '{"name":"Acme Corp"}')
        + request("GET", "/api/v1/clients"),
        "client-import": request("POST", "/api/v1/clients", compact({"name": "Globex", "id": UUID})),
        "sms-import": request("POST", one + "/interactions/sms/import", compact(SERVER_SMS)),
        "sms-import-bulk": request("POST", one + "/interactions/sms/import/bulk", compact(
            {"interactions": [SERVER_SMS, dict(SERVER_SMS, to="555"), {}, 5]})),
        "email-import": request("POST", one + "/interactions/email/import", compact(SERVER_EMAIL)),
        "email-import-bulk": request("POST", one + "/interactions/email/import/bulk", compact(
            {"interactions": [SERVER_EMAIL, dict(SERVER_EMAIL, plainTextBody=" ")]})),
        "sms-generate": request("POST", one + "/interactions/sms/generate", compact(
            {"from": "+12025550100", "to": "+12125550123"}))
        + request("POST", one + "/interactions/sms/generate", '{"from":"+12025550100"}'),
        "email-generate": request("POST", one + "/interactions/email/generate", '{"persist":false}'),
        "interactions": request("GET", one + "/interactions"),
        "analyze-unknown": request("POST", f"/api/v1/interactions/{UUID}/analyze", None),
        "analyze-body": request("POST", f"/api/v1/interactions/{UUID}/analyze",
                                '{"applyOutcomes":false}'),
        # HTTP itself.
        "head-customer": request("HEAD", one),
        "head-healthz": request("HEAD", "/healthz", key=None),
        "pipelined": request("GET", "/healthz", key=None) + request("GET", one)
        + request("POST", customers, "{"),
        "expect-continue": request("POST", customers, other, ["Expect: 100-continue"]),
        "http-1.0": b"GET /healthz HTTP/1.0\r\n\r\n",
        "connection-close": request("GET", one, headers=["Connection: close"])
        + request("GET", "/healthz", key=None),
        "chunked": request("POST", customers, None, ["Content-Type: application/json",
                                                     "Transfer-Encoding: chunked"])
        + chunked(customer[:20].encode(), customer[20:].encode()),
        "chunked-broken": request("POST", customers, None, ["Content-Type: application/json",
                                                            "Transfer-Encoding: chunked"])
        + b"zz\r\n{}\r\n0\r\n\r\n",
        "gzip": request("POST", customers, gzip.compress(customer.encode(), mtime=0),
                        ["Content-Encoding: gzip"]),
        "accept-encoding": request("GET", one, headers=["Accept-Encoding: gzip, br"])
        + request("POST", customers, "{", ["Accept-Encoding: gzip"]),
        "range": request("GET", one, headers=["Range: bytes=0-1"])
        + request("POST", customers, "{", ["Range: bytes=0-1,4-"]),
        "encoding-unknown": request("POST", customers, customer, ["Content-Encoding: compress"]),
        "body-on-get": request("GET", one, "{}") + request("GET", "/healthz", key=None),
        "body-short": request("POST", customers, customer, ["Content-Length: 5000"],
                              length=False),
        "no-content-length": request("POST", customers, customer, length=False),
        "length-over-limit": request("POST", customers, "{}", ["Content-Length: 2097152"],
                                     length=False),
        # Malformed.
        "bad-request-line": b"GARBAGE\r\n\r\n",
        "bad-method": b"BREW /healthz HTTP/1.1\r\nHost: fuzz\r\n\r\n",
        "bad-version": b"GET /healthz HTTP/2.0\r\nHost: fuzz\r\n\r\n",
        "bad-header-line": b"GET /healthz HTTP/1.1\r\nno colon here\r\n\r\n",
        "lf-only": b"GET /healthz HTTP/1.1\nHost: fuzz\n\n",
        "huge-header": request("GET", one, headers=["X-Huge: " + "h" * 9000]),
        "many-headers": request("GET", one, headers=[f"X-Line-{i}: " + "l" * 1000
                                                     for i in range(8)]),
        "uri-too-long": request("GET", customers + "?externalId=" + "x" * 8200),
        "path-traversal": request("GET", "/api/v1/customers/..%2F..%2Fetc%2Fpasswd"),
        "path-invalid-utf8": request("GET", "/api/v1/customers/%FF%FE"),
        "bad-json": request("POST", customers, '{"externalId":'),
        "wrong-content-type": request("POST", customers, customer, content_type="text/plain"),
        "charset-latin1": request("POST", customers, customer,
                                  content_type="application/json; charset=latin1"),
        "no-key": request("GET", one, key=None),
        "empty-key": request("GET", one, key=""),
        "padded-key": request("GET", one, key="   @KEY@"),
        "wrong-key": request("GET", one, key="cck_0123456789abcdef_" + "A" * 43),
        "two-keys": request("GET", one, headers=["Authorization: Bearer @KEY@"]),
        "method-not-allowed": request("DELETE", customers, None),
        "put": request("PUT", one, customer),
        "options": request("OPTIONS", "/api/v1/customers", key=None),
        "unknown-route": request("GET", "/api/v2/customers"),
        "idempotency-key-bad": request("POST", customers, other, ["Idempotency-Key: "]),
        "nul-in-header": request("GET", one, headers=["X-Nul: a\x00b"]),
        # The one parse (docs/security.md, "HTTP framing").
        "no-host": b"GET /healthz HTTP/1.1\r\n\r\n",
        "two-hosts": b"GET /healthz HTTP/1.1\r\nHost: fuzz\r\nHost: other\r\n\r\n",
        "chunked-trailer": request("POST", customers, None, ["Content-Type: application/json",
                                                             "Transfer-Encoding: chunked"])
        + chunked(customer.replace("seed-1", "seed-4").encode())[:-2]
        + b"X-Checksum: 1\r\n\r\n" + request("GET", "/healthz", key=None),
        "two-spaces": request("POST", customers, other).replace(b"POST /", b"POST  /", 1),
        "empty-authorization": request("POST", customers, other).replace(
            b"Authorization:", b"Authorization:\r\nAuthorization:", 1),
        "encoded-slash": request("POST", one + "%2Fcalls", call)
        + request("POST", one + "%2fcease-and-desist", None)
        + request("POST", "/api%2Fv1%2Fcustomers%2F@ID@%2Fcalls", call),
        "idempotency-key-percent": request("POST", customers, compact(dict(
            SERVER_CUSTOMER, externalId="seed-5")), ["Idempotency-Key: k%41"])
        + request("POST", customers, compact(dict(SERVER_CUSTOMER, externalId="seed-6")),
                  ["Idempotency-Key: kA"]),
    }
    return docs


def corpus() -> dict:
    files = {}
    for target, docs in [("customer", customer_docs()), ("bulk", bulk_docs()),
                         ("call", call_docs()), ("envelope", envelope_docs()),
                         ("interaction", interaction_docs())]:
        for name, text in docs.items():
            data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
            files[f"{target}/{name}"] = data
    for name, data in value_docs().items():
        files[f"values/{name}"] = data
    for name, data in server_docs().items():
        files[f"server/{name}"] = data
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a difference")
    args = parser.parse_args()
    files = corpus()
    # Only the targets this script writes: the seeds of the others (webhook_response's, written
    # by hand) are theirs.
    targets = {name.split("/", 1)[0] for name in files}
    existing = {str(p.relative_to(CORPUS)): p.read_bytes()
                for p in CORPUS.glob("*/*")
                if p.is_file() and p.parent.name in targets} if CORPUS.exists() else {}
    if args.check:
        if existing != files:
            changed = sorted(set(existing) ^ set(files) |
                             {k for k in files if k in existing and existing[k] != files[k]})
            print("corpus out of date:", ", ".join(changed[:10]), file=sys.stderr)
            return 1
        return 0
    for name in set(existing) - set(files):
        (CORPUS / name).unlink()
    for name, data in files.items():
        path = CORPUS / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if existing.get(name) != data:
            path.write_bytes(data)
    total = sum(len(d) for d in files.values())
    digest = hashlib.sha256(b"".join(files[k] for k in sorted(files))).hexdigest()[:12]
    print(f"{len(files)} files, {total} bytes, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
