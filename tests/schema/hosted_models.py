#!/usr/bin/python3
"""The answers of the operations of API.md section 13, as the library writes them, against the
hosted service's own component schemas (BulkCreateCallsResponse, GetSignedUrlResponse,
ClientListResponse, SmsImportResponse, SmsImportBulkResponse, EmailImportResponse,
EmailImportBulkResponse, SmsGenerateResponse, EmailGenerateResponse, AnalyzeInteractionResponse)
and the drip campaign webhook bodies (DripCampaignWebhook), read in place from ../shared/reference/hosted-openapi.json; and the texts API.md quotes from the
hosted service, word for word against the document's examples.

Strict where the server conformance test is lenient: a member the hosted schema declares without
`nullable` must not be null (API.md section 13 leaves such a member out instead). Members the
hosted schemas do not declare are extensions, which they allow.

Usage: hosted_models.py SAMPLES_PROGRAM HOSTED_OPENAPI_JSON. Without the document the test says so
and fails when CI is set, else exits 77 (skipped).
"""

import json
import os
import subprocess
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover
    sys.exit("python3-jsonschema is required (apt-get install python3-jsonschema)")

EXPECTED = {
    "BulkCreateCallsResponse", "GetSignedUrlResponse", "ClientListResponse", "SmsImportResponse",
    "SmsImportBulkResponse", "EmailImportResponse", "EmailImportBulkResponse",
    "SmsGenerateResponse", "EmailGenerateResponse", "AnalyzeInteractionResponse",
    "DripCampaignWebhook",
}


def to_json_schema(node, components, seen=()):
    """OpenAPI 3.0 schema -> JSON Schema: $ref inlined, `nullable` as a null type."""
    if isinstance(node, list):
        return [to_json_schema(n, components, seen) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return {}
        return to_json_schema(components[name], components, seen + (name,))
    out = {key: to_json_schema(value, components, seen) for key, value in node.items()
           if key not in ("discriminator", "example", "examples", "nullable", "xml")}
    if node.get("nullable"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    program, path = sys.argv[1], os.environ.get("COLLECTCALL_HOSTED_OPENAPI", sys.argv[2])
    if not os.path.exists(path):
        print(f"the hosted service's OpenAPI document is missing ({path}): it is read in place "
              "from ../shared/reference/hosted-openapi.json", file=sys.stderr)
        return 1 if os.environ.get("CI") else 77
    with open(path) as f:
        document = json.load(f)
    components = document["components"]["schemas"]
    lines = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    problems = []
    covered = set()
    texts = 0
    for line in lines.splitlines():
        item = json.loads(line)
        if item["kind"] == "sample":
            name = item["schema"]
            schema = to_json_schema(components[name], components, (name,))
            validator = jsonschema.Draft202012Validator(schema)
            for error in validator.iter_errors(item["document"]):
                where = "/" + "/".join(str(p) for p in error.absolute_path)
                problems.append(f"{name} ({item['name']}) at {where}: {error.message[:300]}")
            covered.add(name)
        elif item["kind"] == "text":
            texts += 1
            responses = document["paths"][item["path"]]["post"]["responses"]
            example = responses[item["status"]]["content"]["application/json"]["example"]
            hosted = example.get("publicFacingMessage")
            if hosted != item["text"]:
                problems.append(f"{item['path']} {item['status']}: the hosted text is {hosted!r}, "
                                f"the library's {item['text']!r}")
    for name in sorted(EXPECTED - covered):
        problems.append(f"no sample of {name}")
    for text in problems:
        print("FAIL:", text)
    print(f"{len(covered)} hosted schemas, {len(lines.splitlines()) - texts} samples, "
          f"{texts} texts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
