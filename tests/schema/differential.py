#!/usr/bin/python3
"""Differential test: the library's verdict on every corpus document against the verdict of an
independent JSON Schema validator (python3-jsonschema, Draft 2020-12) on json_schema<T>().

Usage: differential.py CORPUS_PROGRAM

The corpus program (tests/schema/corpus.cpp) prints the schemas, the OpenAPI document, the list
of expected differences with their reasons, and every document with the library's verdict. This
script:
  1. checks each schema against the 2020-12 meta-schema;
  2. validates each document (parsed with Python's json module) and compares the verdicts: an
     untagged document must get the same verdict, a tagged one must get a different one;
  3. checks that the formats the schemas announce (date, email, uuid, uri) accept every document
     that both accept, when the validator's format checkers are on (formats are annotations in
     2020-12, but a client may assert them);
  4. checks the OpenAPI document: every $ref resolves, every path and method of the API is
     there, every schema is valid 2020-12, and every example validates against its schema.

One adaptation of the validator, not a difference: JSON Schema specifies ECMA-262 regular
expressions (2020-12 core, section 6.4), in which `$` matches only at the end of the string.
Python's `re` lets `$` also match before a final newline, so with it "+12025550123\\n" would match
the E.164 pattern. Patterns are therefore run with `$` read as `\\Z` (outside character classes),
which is ECMA-262's meaning. The corpus has trailing-newline cases for every pattern to keep this
honest. (The same caution applies to any client that validates with Python, Java or .NET
regular expressions: see docs/schema.md.)
"""

import importlib.metadata
import json
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict

try:
    import jsonschema
    from jsonschema import Draft202012Validator, FormatChecker, RefResolver, validators
    from jsonschema.exceptions import ValidationError
except ImportError:  # pragma: no cover
    sys.exit("python3-jsonschema is required (apt-get install python3-jsonschema); run with /usr/bin/python3")

_ecma_cache = {}


def ecma_regex(pattern):
    """Compiles an ECMA-262 pattern with Python's re, reading `$` as end of string."""
    compiled = _ecma_cache.get(pattern)
    if compiled is not None:
        return compiled
    out = []
    i = 0
    in_class = False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
        elif c == "$":
            c = r"\Z"
        out.append(c)
        i += 1
    compiled = re.compile("".join(out))
    _ecma_cache[pattern] = compiled
    return compiled


def ecma_pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


EcmaValidator = validators.extend(Draft202012Validator, validators={"pattern": ecma_pattern})


def strict_constant(name):
    raise ValueError(f"{name} is not JSON")


def load(text):
    # NaN and Infinity are not JSON (RFC 8259); the corpus has none, and must not get any.
    return json.loads(text, parse_constant=strict_constant)


def first_error(validator, instance):
    error = next(iter(validator.iter_errors(instance)), None)
    if error is None:
        return None
    where = "/" + "/".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message[:160]}"


# Every operation of SPEC.md section 4 and API.md section 5.
EXPECTED_OPERATIONS = {
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/metrics"),
    ("get", "/api/v1/openapi.json"),
    ("post", "/api/v1/customers"),
    ("get", "/api/v1/customers"),
    ("post", "/api/v1/customers/bulk"),
    ("get", "/api/v1/customers/{customerId}"),
    ("patch", "/api/v1/customers/{customerId}"),
    ("post", "/api/v1/customers/{customerId}/calls"),
    ("get", "/api/v1/customers/{customerId}/calls"),
    ("post", "/api/v1/customers/{customerId}/cease-and-desist"),
    ("post", "/api/v1/customers/{customerId}/deactivate"),
    ("post", "/api/v1/customers/{customerId}/activate"),
    ("get", "/api/v1/calls/{callId}"),
    ("post", "/api/v1/webhook-secrets"),
    ("get", "/api/v1/calls/{callId}/recording"),
    # API.md section 13: the rest of the hosted API, and its extensions.
    ("post", "/api/v1/calls/bulk"),
    ("post", "/api/v1/calls/get-signed-url"),
    ("get", "/api/v1/clients"),
    ("post", "/api/v1/clients"),
    ("post", "/api/v1/customers/{customerId}/interactions/sms/import"),
    ("post", "/api/v1/customers/{customerId}/interactions/sms/import/bulk"),
    ("post", "/api/v1/customers/{customerId}/interactions/email/import"),
    ("post", "/api/v1/customers/{customerId}/interactions/email/import/bulk"),
    ("post", "/api/v1/customers/{customerId}/interactions/sms/generate"),
    ("post", "/api/v1/customers/{customerId}/interactions/email/generate"),
    ("get", "/api/v1/customers/{customerId}/interactions"),
    ("post", "/api/v1/interactions/{interactionId}/analyze"),
    # API.md section 14: the account's policy, requests not to be called, decisions.
    ("get", "/api/v1/account"),
    ("post", "/api/v1/customers/{customerId}/do-not-call"),
    ("get", "/api/v1/customers/{customerId}/compliance-decisions"),
    # API.md section 16: the restricted media an operator sets.
    ("put", "/api/v1/customers/{customerId}/restricted-media"),
    # API.md section 15: drip campaigns (the list is an extension).
    ("post", "/api/v1/customers/{customerId}/drip-campaigns"),
    ("get", "/api/v1/customers/{customerId}/drip-campaigns"),
    ("delete", "/api/v1/customers/{customerId}/drip-campaigns/{dripCampaignId}"),
}
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def resolve_pointer(document, ref):
    if not ref.startswith("#"):
        raise KeyError(f"external $ref {ref}")
    node = document
    for token in ref[1:].split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def check_openapi(document, problems):
    if document.get("openapi", "").split(".")[:2] != ["3", "1"]:
        problems.append("openapi: not an OpenAPI 3.1 document")

    # Every $ref resolves.
    def walk(node, where):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                try:
                    resolve_pointer(document, ref)
                except (KeyError, IndexError, ValueError):
                    problems.append(f"openapi: {where}: $ref {ref} does not resolve")
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(document, "")

    operations = {(m, p) for p, item in document.get("paths", {}).items() for m in item if m in METHODS}
    for missing in sorted(EXPECTED_OPERATIONS - operations):
        problems.append(f"openapi: operation {missing[0].upper()} {missing[1]} is missing")
    for extra in sorted(operations - EXPECTED_OPERATIONS):
        problems.append(f"openapi: operation {extra[0].upper()} {extra[1]} is not in the API")

    for name, schema in document.get("components", {}).get("schemas", {}).items():
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as e:
            problems.append(f"openapi: components/schemas/{name}: {e.message}")

    resolver = RefResolver.from_schema(document)
    examples = 0

    def check_media(media, where):
        nonlocal examples
        schema = media.get("schema")
        if schema is None:
            return
        validator = EcmaValidator(schema, resolver=resolver)
        for name, example in media.get("examples", {}).items():
            examples += 1
            error = first_error(validator, example["value"])
            if error:
                problems.append(f"openapi: {where} example {name!r} does not match its schema: {error}")

    operation_ids = Counter()
    for path, item in document.get("paths", {}).items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            operation_ids[op.get("operationId")] += 1
            where = f"{method.upper()} {path}"
            for media_type, media in op.get("requestBody", {}).get("content", {}).items():
                check_media(media, f"{where} request {media_type}")
            responses = op.get("responses", {})
            if not responses:
                problems.append(f"openapi: {where} has no responses")
            for status, response in responses.items():
                if "$ref" in response:
                    response = resolve_pointer(document, response["$ref"])
                for media_type, media in response.get("content", {}).items():
                    check_media(media, f"{where} {status} {media_type}")
            secured = op.get("security", document.get("security")) != []
            if secured and "401" not in responses:
                problems.append(f"openapi: {where} needs a key but has no 401")
            for template in re.findall(r"{([^}]+)}", path):
                params = item.get("parameters", []) + op.get("parameters", [])
                params = [resolve_pointer(document, p["$ref"]) if "$ref" in p else p for p in params]
                if not any(p.get("in") == "path" and p.get("name") == template for p in params):
                    problems.append(f"openapi: {where}: path parameter {template} is not declared")
    for op_id, count in operation_ids.items():
        if op_id is None or count > 1:
            problems.append(f"openapi: operationId {op_id!r} is missing or not unique")
    if examples < 10:
        problems.append(f"openapi: only {examples} examples")
    return examples


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    started = time.monotonic()
    run = subprocess.run([sys.argv[1]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if run.returncode != 0:
        sys.stderr.write(run.stderr.decode(errors="replace"))
        sys.exit(f"corpus program failed with exit code {run.returncode}")

    differences = {}
    schemas = {}
    openapi = None
    cases = []
    for raw in run.stdout.splitlines():
        entry = json.loads(raw)
        kind = entry["kind"]
        if kind == "difference":
            differences[entry["tag"]] = entry["why"]
        elif kind == "schema":
            schemas[entry["model"]] = entry["schema"]
        elif kind == "openapi":
            openapi = entry["document"]
        elif kind == "case":
            cases.append(entry)

    problems = []
    checked = {}
    format_checked = {}
    for model, schema in schemas.items():
        Draft202012Validator.check_schema(schema)
        checked[model] = EcmaValidator(schema)
        format_checked[model] = EcmaValidator(schema, format_checker=FormatChecker())

    per_model = Counter()
    per_difference = defaultdict(list)
    agreed = 0
    for case in cases:
        model, name, text, tag = case["model"], case["name"], case["doc"], case["difference"]
        per_model[model] += 1
        library = case["library"]
        instance = load(text)
        error = first_error(checked[model], instance)
        schema_verdict = error is None
        if tag and tag not in differences:
            problems.append(f"{model} {name!r}: unknown difference {tag!r}")
        if not tag and library != schema_verdict:
            problems.append(
                f"{model} {name!r}: library says {'valid' if library else 'invalid'}, the schema "
                f"says {'valid' if schema_verdict else 'invalid: ' + error}\n    document: {text[:300]}")
        elif tag and library == schema_verdict:
            problems.append(
                f"{model} {name!r}: expected the difference {tag!r}, but both say "
                f"{'valid' if library else 'invalid'}\n    document: {text[:300]}")
        elif tag:
            per_difference[tag].append(f"{model} {name} (library: {'valid' if library else 'invalid'})")
        else:
            agreed += 1
        if library and schema_verdict:
            format_error = first_error(format_checked[model], instance)
            if format_error:
                problems.append(f"{model} {name!r}: accepted by the library, refused by a format "
                                f"checker: {format_error}")

    for model in schemas:
        if per_model[model] < 200:
            problems.append(f"{model}: only {per_model[model]} documents (at least 200 wanted)")

    examples = 0
    if openapi is None:
        problems.append("no OpenAPI document")
    else:
        examples = check_openapi(openapi, problems)

    print(f"validator: jsonschema {importlib.metadata.version('jsonschema')}, Draft202012Validator "
          "with ECMA-262 `$`")
    for model in schemas:
        print(f"  {model}: {per_model[model]} documents")
    print(f"agreed: {agreed}; expected differences seen: "
          + ", ".join(f"{tag} {len(v)}" for tag, v in sorted(per_difference.items())))
    for tag, why in differences.items():
        print(f"  difference {tag}: {why}")
    print(f"OpenAPI document: {len(openapi.get('paths', {})) if openapi else 0} paths, "
          f"{examples} examples checked")
    print(f"took {time.monotonic() - started:.1f} s")
    if problems:
        print(f"\n{len(problems)} problems:")
        for p in problems[:200]:
            print("  " + p)
        print(f"\n{len(cases) + 1 - len(problems)} passed, {len(problems)} failed")
        return 1
    print(f"\n{len(cases) + 1} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
