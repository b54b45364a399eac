#!/usr/bin/env python3
"""schemathesis against the running local shop (BASE_URL, as scripts/with-gateway.sh exports it).

Two passes over the document the gateway serves at /api/openapi.json, every check on: a public pass with no
token, then an admin pass with the seeded admin's token, signed in through the outbox as a person would.
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
    """One schemathesis run; answers (passed, operations, cases, seconds)."""
    report = Path(tempfile.mkdtemp(prefix=f"schemathesis-{name}-"))
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
    ]
    if token:
        command += ["--header", f"Authorization: Bearer {token}"]
    print(f"== schemathesis, {name} pass: {args.examples} examples per operation, seed {args.seed}", flush=True)
    started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT)
    seconds = time.monotonic() - started
    operations, cases = count(report)
    return result.returncode == 0, operations, cases, seconds


def count(report):
    """Operations and test cases from the ndjson event stream."""
    operations, cases = set(), 0
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
    return len(operations), cases


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=int(os.environ.get("FUZZ_EXAMPLES", "25")))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "20261123")))
    # One worker: with two, Python 3.11's ast.parse, which Hypothesis calls to describe its filters, now and then
    # fails with "AST constructor recursion depth mismatch" when two threads parse at once (a CPython bug),
    # and the run reports an error that is not the shop's.
    parser.add_argument("--workers", type=int, default=int(os.environ.get("FUZZ_WORKERS", "1")))
    parser.add_argument("--passes", default=os.environ.get("FUZZ_PASSES", "public,admin"))
    args = parser.parse_args()
    base = os.environ.get("BASE_URL")
    if not base:
        sys.exit("BASE_URL is not set: run me through scripts/with-gateway.sh")

    # The token first: the public pass may spend the admin address's login-code allowance.
    passes = args.passes.split(",")
    token = admin_token(base) if "admin" in passes else None
    results = []
    for name in passes:
        results.append((name, *run_pass(base, name, args, token if name == "admin" else None)))

    print()
    for name, passed, operations, cases, seconds in results:
        verdict = "passed" if passed else "FAILED"
        print(f"schemathesis {name}: {verdict}, {operations} operations, {cases} cases, {seconds:.1f} s")
    sys.exit(0 if all(passed for _, passed, *_ in results) else 1)


if __name__ == "__main__":
    main()
