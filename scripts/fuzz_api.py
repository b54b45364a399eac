#!/usr/bin/env python3
"""schemathesis against the running local shop (BASE_URL, as scripts/with-gateway.sh exports it).

Passes over the document the gateway serves at /api/openapi.json, every check on: a public pass with no
token, then an admin pass with the seeded admin's token, signed in through the outbox as a person would, and
last a pass over logout alone with that token. Logout ends the token's session, so the admin pass leaves it
out: had it run there, every operation after it would have seen only 401s and tested nothing. The admin pass
fails if any operation in it saw only 401/403 answers (its token stopped working), told from the report.
A fixed seed and a bounded number of examples per operation keep the run repeatable and within minutes.
Exits non-zero on any failure; prints the run time and the operations and cases run (make bench reads it).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_EMAIL = "admin@example.com"
CONFIG = ROOT / "schemathesis.toml"
METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"}
# Ends the session of the token it is called with: only in the last pass.
LOGOUT = "log_out"
# What each pass runs: (schemathesis's filter arguments, whether it carries the admin's token).
PASSES = {
    "public": ([], False),
    "admin": (["--exclude-operation-id", LOGOUT], True),
    "logout": (["--include-operation-id", LOGOUT], True),
}


def call(base, method, path, body=None, token=None):
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
        return json.loads(text) if text else None


def admin_token(base):
    """Signs in as the seeded admin: a login code by mail, read from the local outbox."""
    outbox = f"/_local/outbox?limit=500&to={ADMIN_EMAIL}"
    before = len(call(base, "GET", outbox))
    # The outbox lists newest first: the mails that came after `before` are the first ones.
    call(base, "POST", "/api/user/login/", {"email": ADMIN_EMAIL})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        listed = call(base, "GET", outbox)
        mails = listed[: len(listed) - before]
        codes = [re.search(r"log in to .*?:\s*(\d{6})", mail.get("text") or "") for mail in mails]
        codes = [match.group(1) for match in codes if match]
        if codes:
            signed_in = call(base, "POST", "/api/user/verify/", {"email": ADMIN_EMAIL, "code": codes[0]})
            return signed_in["token"]
        time.sleep(0.3)
    sys.exit("No login code reached the admin's outbox within 30 seconds")


def run_pass(base, name, args, token=None):
    """One schemathesis run; answers (passed, operations, cases, seconds, refused): `refused` lists the
    operations that saw only 401/403 answers."""
    report = Path(tempfile.mkdtemp(prefix=f"schemathesis-{name}-"))
    filters, _ = PASSES[name]
    command = [
        str(ROOT / ".venv/bin/schemathesis"),
        "--config-file", str(CONFIG),
        "run", f"{base}/api/openapi.json",
        "--url", base,
        "--checks", "all",
        "--max-examples", str(args.examples),
        "--seed", str(args.seed),
        # No example database between runs: the seed alone decides what is sent.
        "--generation-database", ":memory:",
        "--workers", str(args.workers),
        "--report", "ndjson",
        "--report-dir", str(report),
        "--no-color",
        *filters,
    ]
    if token:
        command += ["--header", f"Authorization: Bearer {token}"]
    print(f"== schemathesis, {name} pass: {args.examples} examples per operation, seed {args.seed}", flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT)
    seconds = time.monotonic() - started
    operations, cases, statuses = read_report(report)
    return result.returncode == 0, operations, cases, seconds, only_refused(statuses)


def read_report(report):
    """Operations, test cases and each operation's answered statuses, from the ndjson event stream."""
    operations, cases, statuses = set(), 0, {}
    for path in report.glob("*.ndjson"):
        for line in path.read_text().splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            for kind, body in event.items():
                if kind == "ScenarioFinished" and isinstance(body, dict):
                    recorder = body.get("recorder") or {}
                    label = recorder.get("label") or ""
                    if label.split(" ")[0] in METHODS and body.get("status") != "skip":
                        operations.add(label)
                    cases += len(recorder.get("cases") or {})
                    # Stateful scenarios span several operations: only single-operation ones are filed.
                    if label.split(" ")[0] not in METHODS:
                        continue
                    method = label.split(" ")[0]
                    for interaction in (recorder.get("interactions") or {}).values():
                        request = (interaction or {}).get("request") or {}
                        response = (interaction or {}).get("response") or {}
                        # The unsupported-methods check's calls (405) are not the operation's own.
                        if request.get("method") == method and "status_code" in response:
                            statuses.setdefault(label, set()).add(response["status_code"])
    return len(operations), cases, statuses


def secured_operations(base):
    """The operations the document says need a token, as schemathesis labels them (`POST /api/x/`)."""
    document = call(base, "GET", "/api/openapi.json")
    return {
        f"{method.upper()} {path}"
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method.upper() in METHODS and operation.get("security")
    }


def only_refused(statuses):
    """The operations whose every answer was 401 or 403."""
    return sorted(label for label, seen in statuses.items() if seen and seen <= {401, 403})


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=int(os.environ.get("FUZZ_EXAMPLES", "25")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "20261123")))
    # One worker: with two, Python 3.11's ast.parse, which Hypothesis calls to describe its filters, now and then
    # fails with "AST constructor recursion depth mismatch" when two threads parse at once (a CPython bug),
    # and the run reports an error that is not the shop's.
    parser.add_argument("--workers", type=int, default=int(os.environ.get("FUZZ_WORKERS", "1")))
    parser.add_argument("--passes", default=os.environ.get("FUZZ_PASSES", "public,admin,logout"))
    args = parser.parse_args()
    base = os.environ.get("BASE_URL")
    if not base:
        sys.exit("BASE_URL is not set: run me through scripts/with-gateway.sh")

    # The token first: the public pass may spend the admin address's login-code allowance.
    passes = args.passes.split(",")
    unknown = [name for name in passes if name not in PASSES]
    if unknown:
        sys.exit(f"unknown passes {unknown}: choose among {', '.join(PASSES)}")
    token = admin_token(base) if any(PASSES[name][1] for name in passes) else None
    results = []
    for name in passes:
        with_token = token if PASSES[name][1] else None
        results.append((name, *run_pass(base, name, args, with_token)))

    print()
    secured = secured_operations(base)
    failed = False
    for name, passed, operations, cases, seconds, refused in results:
        verdict = "passed" if passed else "FAILED"
        print(f"schemathesis {name}: {verdict}, {operations} operations, {cases} cases, {seconds:.1f} s")
        failed |= not passed
        # A visitor is refused only what needs a token; the admin may call everything, so an operation that
        # saw only 401/403 there was not tested at all (the token stopped working).
        unexpected = [label for label in refused if label not in secured] if name == "public" else refused
        if unexpected:
            print(f"schemathesis {name}: FAILED, {len(unexpected)} operations saw only 401/403 answers: "
                  + ", ".join(unexpected))
            failed = True
        else:
            print(f"schemathesis {name}: {len(refused)} operations saw only 401/403, all of them needing a token"
                  if refused else f"schemathesis {name}: no operation saw only 401/403")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
