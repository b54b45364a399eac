"""make bench-volume (a step of make bench): the local store under volume.

Starts the local gateway on a free port with its state in a temporary folder, records the home page's API
answers, then loads the store through the real AWS APIs with --items items spread across every table and
--mails sent mails, and checks:

  - login through the outbox works (ask for a code, read it from /_local/outbox, verify it);
  - the outbox answers in < 100 ms (median and 90th percentile), and a request made while it is read is not
    held up behind it;
  - the home page's API calls give the same answers as before, and how long they take now;
  - a transaction (as a checkout makes) on a full table takes milliseconds, not a copy of the table;
  - the emulator's resident memory (reported; the limit is --max-rss-mb);
  - after a restart (SIGTERM, start again on the same state) every item and mail is back.

Exit status 1 if a check fails. Numbers are printed for the closing notes.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import boto3
from botocore.config import Config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOME_CALLS = [
    "/api/home/home/uk/",
    "/api/connect/uk/palestine/connect/",
    "/api/home_uk/palestine/about/show_result/",
    "/api/link/",
    "/api/policy/",
    "/api/home/uk/review/",
    "/api/home/drinks/hom/uk/uk/?pageNumber=1",
]
failures = []


def check(ok, what):
    print(("  ok    " if ok else "  FAIL  ") + what, flush=True)
    if not ok:
        failures.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, path, body=None, method=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if body else "GET"))
    if body is not None:
        req.add_header("Content-Type", "application/json")
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    elapsed = (time.perf_counter() - started) * 1000
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw.decode(errors="replace")
    return status, parsed, elapsed


class Gateway:
    def __init__(self, state):
        self.state = state
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        # LOCAL_PRERENDER=0: rendering a page per drink of the volume in the background would skew the times.
        env = dict(os.environ, PORT=str(self.port), LOCAL_STATE=self.state, LOCAL_PREFIX="bench",
                   RUST_LOG="warn", LOCAL_PRERENDER="0")
        env.pop("AWS_ENDPOINT_URL", None)
        started = time.perf_counter()
        self.log = open(os.path.join(os.path.dirname(self.state), "gateway.log"), "ab")
        self.process = subprocess.Popen([os.path.join(ROOT, "target/debug/local")], env=env, stdout=self.log,
                                        stderr=self.log, cwd=ROOT)
        for _ in range(600):
            if self.process.poll() is not None:
                sys.exit(f"the gateway stopped; see {self.log.name}")
            try:
                if request(self.base, "/api/product/")[0] == 200:
                    return time.perf_counter() - started
            except OSError:
                pass
            time.sleep(0.2)
        sys.exit("the gateway did not answer within 2 minutes")

    def emulator_pid(self):
        children = set()
        for task in os.listdir(f"/proc/{self.process.pid}/task"):
            with open(f"/proc/{self.process.pid}/task/{task}/children") as f:
                children.update(int(p) for p in f.read().split())
        return next(iter(children))

    def stop(self):
        started = time.perf_counter()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=120)
        return time.perf_counter() - started


def rss_mb(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                values[key] = int(value.split()[0]) / 1024
    return values


def home_answers(base, rounds=5):
    answers, times = {}, {}
    for path in HOME_CALLS:
        samples = []
        for _ in range(rounds):
            status, body, ms = request(base, path)
            samples.append(ms)
        answers[path] = (status, body)
        times[path] = statistics.median(samples)
    return answers, times


def tables_of(env):
    names = set()
    for variables in env.values():
        names.update(v for k, v in variables.items() if k.endswith("_TABLE"))
    return sorted(names)


def item_for(description, i):
    """An item with every key and index attribute set, in a partition of its own the shop never reads."""
    types = {a["AttributeName"]: a["AttributeType"] for a in description["AttributeDefinitions"]}
    item = {"payload": {"S": "bench item " + "x" * 160}, "n": {"N": str(i)}}
    schemas = [description["KeySchema"]] + [g["KeySchema"] for g in description.get("GlobalSecondaryIndexes", [])]
    for schema in schemas:
        for key in schema:
            name = key["AttributeName"]
            if name in item:
                continue
            if key["KeyType"] == "HASH" and schema is description["KeySchema"]:
                value = f"BENCH#{i}"
            elif key["KeyType"] == "HASH":
                value = "BENCH"
            else:
                value = f"{i:09d}"
            item[name] = {"N": str(i)} if types.get(name) == "N" else {"S": value}
    return item


def load_items(dynamodb, tables, count):
    per_table = {t: count // len(tables) + (1 if i < count % len(tables) else 0) for i, t in enumerate(tables)}
    started = time.perf_counter()
    for table, n in per_table.items():
        description = dynamodb.describe_table(TableName=table)["Table"]
        for first in range(0, n, 25):
            batch = [{"PutRequest": {"Item": item_for(description, i)}} for i in range(first, min(first + 25, n))]
            pending = {table: batch}
            while pending:
                pending = dynamodb.batch_write_item(RequestItems=pending).get("UnprocessedItems") or None
    return per_table, time.perf_counter() - started


def count_items(dynamodb, table):
    total, start = 0, None
    while True:
        kwargs = {"TableName": table, "Select": "COUNT"}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = dynamodb.scan(**kwargs)
        total += page["Count"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return total


def send_mails(ses, sender, count):
    started = time.perf_counter()
    for i in range(count):
        ses.send_email(
            FromEmailAddress=sender,
            Destination={"ToAddresses": [f"bench{i % 500}@example.com"]},
            Content={"Simple": {"Subject": {"Data": f"Bench mail {i}"},
                                "Body": {"Html": {"Data": f"<p>Bench mail <b>{i}</b></p>"},
                                         "Text": {"Data": f"Bench mail {i}"}}}},
        )
    return time.perf_counter() - started


def login_through_outbox(base):
    email = "admin@example.com"
    status, _, _ = request(base, "/api/user/login/", {"email": email})
    if status != 200:
        return False, f"login code request answered {status}"
    status, mails, ms = request(base, f"/_local/outbox?to={email}&limit=1")
    if status != 200 or not mails:
        return False, f"the outbox answered {status}"
    found = re.search(r"log in to .*?:\s*(\d{6})", mails[0].get("text") or "")
    code = found.group(1) if found else ""
    status, body, _ = request(base, "/api/user/verify/", {"email": email, "code": code})
    ok = status == 200 and isinstance(body, dict) and body.get("token") and body["userInfo"]["role"] == "admin"
    return ok, f"code read from the outbox in {ms:.0f} ms, verify answered {status}"


def outbox_times(base, path, rounds=30):
    samples = []
    for _ in range(rounds):
        status, body, ms = request(base, path)
        assert status == 200, (status, body)
        samples.append(ms)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9)], body


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--mails", type=int, default=10_000)
    parser.add_argument("--max-rss-mb", type=float, default=1024)
    parser.add_argument("--keep", action="store_true", help="keep the state folder (its path is printed)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="bench-volume-")
    state = os.path.join(folder, "state")
    gateway = Gateway(state)
    print(f"== Volume: {args.items} items, {args.mails} mails (state in {state})", flush=True)
    try:
        startup = gateway.start()
        print(f"  first start (empty store, demo shop seeded): {startup:.1f} s")
        env = request(gateway.base, "/_local/env")[1]
        endpoint = env["CatalogFunction"]["AWS_ENDPOINT_URL"]
        sender = env["AuthFunction"]["MAIL_FROM"]
        before_answers, before_times = home_answers(gateway.base)
        rss_empty = rss_mb(gateway.emulator_pid())

        aws = dict(endpoint_url=endpoint, region_name=env["CatalogFunction"]["AWS_REGION"],
                   aws_access_key_id="local", aws_secret_access_key="local",
                   config=Config(retries={"max_attempts": 2}))
        dynamodb = boto3.client("dynamodb", **aws)
        ses = boto3.client("sesv2", **aws)
        tables = tables_of(env)
        per_table, took = load_items(dynamodb, tables, args.items)
        print(f"  loaded {args.items} items into {len(tables)} tables in {took:.0f} s")
        took = send_mails(ses, sender, args.mails)
        print(f"  sent {args.mails} mails in {took:.0f} s", flush=True)

        ok, detail = login_through_outbox(gateway.base)
        check(ok, f"login through the outbox ({detail})")

        median, p90, newest = outbox_times(gateway.base, "/_local/outbox")
        check(p90 < 100, f"outbox, newest page of {len(newest)}: median {median:.1f} ms, p90 {p90:.1f} ms (< 100 ms)")
        median, p90, page = outbox_times(gateway.base, "/_local/outbox?to=bench7@example.com&limit=20")
        check(p90 < 100, f"outbox, one recipient's {len(page)}: median {median:.1f} ms, p90 {p90:.1f} ms (< 100 ms)")
        status, older, _ = request(gateway.base, f"/_local/outbox?before={newest[-1]['seq']}")
        check(status == 200 and len(older) == len(newest) and older[0]["seq"] < newest[-1]["seq"],
              "the outbox pages to older mail")

        # A request made while the outbox is being read is not queued behind it.
        results = {}

        def read_outbox():
            results["outbox"] = request(gateway.base, "/_local/outbox?limit=500")[2]

        reader = threading.Thread(target=read_outbox)
        reader.start()
        results["product"] = request(gateway.base, "/api/category/")[2]
        reader.join()
        check(results["product"] < 1000, f"a category list beside a 500-mail outbox read: {results['product']:.0f} ms "
              f"(the outbox read: {results['outbox']:.0f} ms)")

        after_answers, after_times = home_answers(gateway.base)
        for path in HOME_CALLS:
            same = after_answers[path] == before_answers[path]
            check(same and after_answers[path][0] == 200,
                  f"{path}: same answer, {before_times[path]:.0f} ms before, {after_times[path]:.0f} ms now")

        # A transaction on the fullest table, as a checkout makes one (moto copied whole tables for these).
        table = max(per_table, key=per_table.get)
        description = dynamodb.describe_table(TableName=table)["Table"]
        sample = item_for(description, 0)
        key = {k["AttributeName"]: sample[k["AttributeName"]] for k in description["KeySchema"]}
        missing = {**key, description["KeySchema"][0]["AttributeName"]: {"S": "NOT THERE"}}
        samples = []
        for _ in range(10):
            started = time.perf_counter()
            try:
                dynamodb.transact_write_items(TransactItems=[
                    {"Update": {"TableName": table, "Key": key, "UpdateExpression": "SET n = n + :one",
                                "ExpressionAttributeValues": {":one": {"N": "1"}}}},
                    {"ConditionCheck": {"TableName": table, "Key": missing,
                                        "ConditionExpression": "attribute_exists(payload)"}},
                ])
            except dynamodb.exceptions.TransactionCanceledException:
                pass
            samples.append((time.perf_counter() - started) * 1000)
        n = dynamodb.get_item(TableName=table, Key=key)["Item"]["n"]["N"]
        check(n == "0", f"ten cancelled transactions on {table} ({per_table[table]} items) changed nothing")
        check(statistics.median(samples) < 200,
              f"a transaction on {table}: median {statistics.median(samples):.0f} ms")

        pid = gateway.emulator_pid()
        memory = rss_mb(pid)
        check(memory["VmRSS"] < args.max_rss_mb,
              f"emulator memory: {memory['VmRSS']:.0f} MB resident (peak {memory['VmHWM']:.0f} MB; "
              f"{rss_empty['VmRSS']:.0f} MB with the demo shop alone)")

        counts = {t: count_items(dynamodb, t) for t in tables}
        mail_count = len(outbox_all(gateway.base))
        took = gateway.stop()
        size = os.path.getsize(os.path.join(state, "moto.pickle")) / 1_048_576
        print(f"  stopped in {took:.1f} s; state file {size:.0f} MB")
        startup = gateway.start()
        print(f"  restarted in {startup:.1f} s")
        dynamodb = boto3.client("dynamodb", **dict(aws, endpoint_url=request(gateway.base, "/_local/env")[1][
            "CatalogFunction"]["AWS_ENDPOINT_URL"]))
        again = {t: count_items(dynamodb, t) for t in tables}
        check(again == counts, f"after the restart every table has its {sum(counts.values())} items")
        check(len(outbox_all(gateway.base)) == mail_count, f"after the restart the outbox has its {mail_count} mails")
        restarted_answers, _ = home_answers(gateway.base, rounds=1)
        check(restarted_answers == before_answers, "after the restart the home page's calls give the same answers")
        memory = rss_mb(gateway.emulator_pid())
        print(f"  emulator memory after the restart: {memory['VmRSS']:.0f} MB resident")
        gateway.stop()
    finally:
        if gateway.process and gateway.process.poll() is None:
            gateway.process.send_signal(signal.SIGTERM)
            gateway.process.wait(timeout=60)
        if args.keep:
            print(f"  state kept in {state}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"{len(failures)} volume check(s) failed")
        sys.exit(1)
    print("volume checks passed")


def outbox_all(base):
    """Every mail, a page at a time (the pages' own links)."""
    mails, before = [], None
    while True:
        path = "/_local/outbox?limit=500" + (f"&before={before}" if before else "")
        status, page, _ = request(base, path)
        if status != 200 or not page:
            return mails
        mails.extend(page)
        before = page[-1]["seq"]  # newest first: the page's last is its oldest
        if len(page) < 500:
            return mails


if __name__ == "__main__":
    main()
