"""moto's server as the local stack runs it: one request at a time, its state kept on disk, its mail readable alone.

One request at a time: moto serves requests on threads, and its TransactWriteItems checks, writes and (on a
failed condition) rolls back: two transactions on two threads interleave, and a rollback can undo the other's
writes. DynamoDB runs transactions serializably. A lock around moto's WSGI app gives the same guarantee
locally; connections are still served on threads, so keep-alive clients never block others.

  -H HOST -p PORT   as moto_server
  --state FILE      load every service's state from FILE at start, and keep it there: a few seconds after a
                    write, and on SIGTERM/SIGINT, the state is written to a new file renamed over the old one,
                    so a crash or Ctrl-C loses at most those seconds and never leaves a file that will not
                    load. Without it the state lives in memory only (tests).

Beside moto's own API it answers, outside the lock (a read of a list, never a walk of every table):

  GET /_shop/state
      whether the state is kept on disk, and how its snapshots go: {"keeping", "path", "savedAt",
      "failures", "lastError", "unsaved"}. The gateway polls it and warns on its console when one fails.

  GET /_shop/mails?limit=50&before=SEQ&to=ADDRESS
      the mails SES sent, newest first: {"mails": [{seq, id, sentAt, from, to, cc, bcc, subject, text, html,
      raw, headers}], "next": SEQ or null}. `before` pages to older mails, `to` keeps one recipient's.

  GET /_shop/faults, POST /_shop/faults {"conflictPercent": N, "throttlePercent": M, "keyPrefixes": [...]}
      DynamoDB's contention, which moto never shows: this share of TransactWriteItems is cancelled
      (TransactionCanceledException) with one item's reason TransactionConflict, as real DynamoDB cancels
      concurrent transactions on one item, and that share with ProvisionedThroughputExceeded, as it cancels
      one past an item's write ceiling. A cancelled transaction writes nothing. With keyPrefixes, only
      transactions writing an item whose pk starts with one of them are struck (the hot items: a drink on
      sale is `PRODUCT#`, the order-number counter `COUNTER#`); without, every transaction may be. The
      shares start from LOCAL_DYNAMODB_CONFLICT_PERCENT and LOCAL_DYNAMODB_THROTTLE_PERCENT (0 unless set).
      Both answer the shares in force until then and the transactions seen and cancelled under them (a POST
      then starts counting afresh).

Habits of moto that cost time and memory far beyond its data, changed here:
  - Every model object moto ever makes (each item written, each overwritten or deleted one, each copy a
    transaction makes, each mail) is appended to a class-wide list that only /moto-api/data.json reads, so
    nothing is ever freed and that dump lists the dead beside the living. Here nothing is tracked: memory
    follows the data.
  - TransactWriteItems deep-copies every table it touches before each transaction, to roll back a failed
    one: with a big table every checkout copied the whole table. Here it keeps only the items the
    transaction touches, and puts those back on failure.
  - Every Query sorts the whole table and filters it. Here a Query sees only its partition (see
    _patch_queries).
  - Its request log lines (one record per request, read by nobody) are off, and nothing asks for
    /moto-api/data.json (a dump of every table and bucket) any more.
  - SES keeps only the HTML part of a mail and no send time: here each mail also keeps its text part, its
    headers, a send time and a sequence number (the outbox pages by it).
"""
import argparse
import collections
import copy
import ctypes
import email
import email.policy
import functools
import gc
import io
import json
import logging
import os
import pickle
import random
import signal
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from urllib.parse import parse_qs

from werkzeug.serving import run_simple

from moto.core.base_backend import BackendDict
from moto.moto_server.threaded_moto_server import MotoRequestHandler
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app

_lock = threading.Lock()
log = logging.getLogger("moto_serial")

# ---------------------------------------------------------------------------------------------------------
# Mail: what the outbox reads

_mail_seq = [0]
# Each recipient's mails (lower case address -> messages, oldest first), so one person's page is cheap.
_by_recipient = {}


def _index_recipients(message):
    for address in dict.fromkeys(a.lower() for a in _recipients(message)):
        _by_recipient.setdefault(address, []).append(message)


def _stamp(message, text=None, headers=None):
    """Marks a message SES just kept: its order, time, text part and headers (moto keeps none of these)."""
    _mail_seq[0] += 1
    message.shop_seq = _mail_seq[0]
    message.shop_sent_at = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    message.shop_text = text
    message.shop_headers = headers or {}
    _index_recipients(message)


def _patch_ses():
    from moto.ses import models as ses_models
    from moto.sesv2 import responses as sesv2_responses

    backend = ses_models.SESBackend
    for name in ("send_email", "send_raw_email", "send_templated_email", "send_bulk_templated_email"):
        original = getattr(backend, name, None)
        if original is None:
            continue

        def sending(self, *args, __original=original, **kwargs):
            kept = len(self.sent_messages)
            result = __original(self, *args, **kwargs)
            for message in self.sent_messages[kept:]:
                if not hasattr(message, "shop_seq"):
                    _stamp(message)
            return result

        setattr(backend, name, sending)

    # SESv2 SendEmail: moto drops the text part when there is an HTML one, and the Simple content's headers.
    original_v2 = sesv2_responses.SESV2Response.send_email

    def send_email_v2(self):
        answer = original_v2(self)
        try:
            simple = (json.loads(self.body).get("Content") or {}).get("Simple") or {}
        except ValueError:
            return answer
        if simple:
            messages = self.sesv2_backend.core_backend.sent_messages
            if messages:
                text = ((simple.get("Body") or {}).get("Text") or {}).get("Data")
                headers = {h.get("Name"): h.get("Value") for h in simple.get("Headers") or [] if h.get("Name")}
                messages[-1].shop_text = text
                messages[-1].shop_headers = headers
        return answer

    sesv2_responses.SESV2Response.send_email = send_email_v2


def _ses_lists():
    """Every SES region's list of sent messages (references: reading them takes no lock)."""
    from moto.ses.models import ses_backends

    lists = []
    for account in list(dict.values(ses_backends)):
        for region_backend in list(dict.values(account)):
            lists.append(region_backend.sent_messages)
    return lists


def _raw_parts(raw):
    """Subject, text, HTML and headers of a raw MIME message."""
    parsed = email.message_from_string(raw, policy=email.policy.default)
    headers = {k: str(v) for k, v in parsed.items()}
    text = html = None
    for part in parsed.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and text is None:
            text = part.get_content()
        elif kind == "text/html" and html is None:
            html = part.get_content()
    return str(parsed.get("Subject", "")), text, html, headers


def _mail_json(message):
    body = {
        "seq": getattr(message, "shop_seq", 0),
        "id": message.id,
        "sentAt": getattr(message, "shop_sent_at", None),
        "from": getattr(message, "source", None),
        "headers": dict(getattr(message, "shop_headers", None) or {}),
    }
    destinations = getattr(message, "destinations", None)
    if hasattr(message, "raw_data"):
        subject, text, html, headers = _raw_parts(message.raw_data)
        # moto lists a raw mail's recipients once from the call and again from its headers.
        to = list(dict.fromkeys(destinations or []))
        body.update(subject=subject, text=text, html=html, to=to, cc=[], bcc=[])
        body["headers"] = {**headers, **body["headers"]}
    else:
        destinations = destinations or {}
        html_or_text = getattr(message, "body", "") or ""
        text = getattr(message, "shop_text", None)
        looks_html = html_or_text.lstrip().startswith("<") and "</" in html_or_text
        if text is None and not looks_html:
            text, html = html_or_text, None
        else:
            html = html_or_text if looks_html else None
            text = text if text is not None else (None if looks_html else html_or_text)
        body.update(
            subject=getattr(message, "subject", ""),
            text=text,
            html=html,
            to=list(destinations.get("ToAddresses", [])),
            cc=list(destinations.get("CcAddresses", [])),
            bcc=list(destinations.get("BccAddresses", [])),
        )
    return body


def _recipients(message):
    destinations = getattr(message, "destinations", None) or {}
    if isinstance(destinations, dict):
        return [a for key in ("ToAddresses", "CcAddresses", "BccAddresses") for a in destinations.get(key, [])]
    return list(destinations)


def mails_page(query):
    """One page of sent mail, newest first. Lists only grow at their end, so this reads without the lock."""
    params = parse_qs(query)
    try:
        limit = int(params.get("limit", ["50"])[0])
        before = int(params["before"][0]) if "before" in params else None
    except ValueError:
        return 400, {"message": "limit and before must be whole numbers"}
    if not 1 <= limit <= 1000:
        return 400, {"message": "limit must be between 1 and 1000"}
    to = params.get("to", [None])[0]
    to = to.lower() if to else None
    if to:
        messages = list(_by_recipient.get(to, []))
    else:
        lists = [list(messages) for messages in _ses_lists()]
        messages = lists[0] if len(lists) == 1 else sorted(
            (m for messages in lists for m in messages), key=lambda m: getattr(m, "shop_seq", 0)
        )
    if before is not None:
        # Sequence numbers grow along each list: skip the newer ones by bisection, not one by one.
        low, high = 0, len(messages)
        while low < high:
            middle = (low + high) // 2
            if getattr(messages[middle], "shop_seq", 0) < before:
                low = middle + 1
            else:
                high = middle
        messages = messages[:low]
    page = []
    for message in reversed(messages):
        if not hasattr(message, "id"):
            continue  # bulk templated sends keep a list of ids, not a mail
        page.append(message)
        if len(page) > limit:
            break
    more = len(page) > limit
    page = page[:limit]
    return 200, {
        "mails": [_mail_json(m) for m in page],
        "next": getattr(page[-1], "shop_seq", None) if more and page else None,
    }


# ---------------------------------------------------------------------------------------------------------
# Objects freed when the data lets go of them


def _stop_tracking_instances():
    from moto.core import common_models
    from moto.core.model_instances import reset_model_data

    def untracked(cls, *args, **kwargs):
        return object.__new__(cls)

    common_models.BaseModel.__new__ = untracked
    reset_model_data()


# ---------------------------------------------------------------------------------------------------------
# Transactions without copying whole tables


def _patch_transactions():
    from moto.dynamodb import models as dynamodb_models
    from moto.dynamodb.models.table import Table

    class _NoTableCopy:
        """moto's module sees this as `copy`: tables are not copied (the undo log below replaces that)."""

        @staticmethod
        def deepcopy(value, memo=None):
            if isinstance(value, Table):
                return value
            return copy.deepcopy(value, memo)

        def __getattr__(self, name):
            return getattr(copy, name)

    dynamodb_models.copy = _NoTableCopy()
    original = dynamodb_models.DynamoDBBackend.transact_write_items

    def transact_write_items(self, transact_items):
        undo = []
        for entry in transact_items:
            try:
                op = next(iter(entry.values()))
                table = self.tables.get(op.get("TableName"))
                if table is None:
                    continue
                if "Item" in op:
                    key = {table.hash_key_attr: op["Item"][table.hash_key_attr]}
                    if table.range_key_attr is not None:
                        key[table.range_key_attr] = op["Item"][table.range_key_attr]
                else:
                    key = op["Key"]
                hash_value, range_value = self.get_keys_value(table, key)
                current = table.get_item(hash_value, range_value)
                undo.append((table, hash_value, range_value, copy.deepcopy(current)))
            except Exception:  # moto reports a malformed entry itself, with DynamoDB's message
                continue
        try:
            return original(self, transact_items)
        except Exception:
            for table, hash_value, range_value, item in reversed(undo):
                if item is None:
                    if range_value is not None:
                        table.items.get(hash_value, {}).pop(range_value, None)
                    else:
                        table.items.pop(hash_value, None)
                elif range_value is not None:
                    table.items[hash_value][range_value] = item
                else:
                    table.items[hash_value] = item
            raise

    dynamodb_models.DynamoDBBackend.transact_write_items = transact_write_items


# ---------------------------------------------------------------------------------------------------------
# Queries that read their partition, not the table

# Bumped by every request that may change something: cached partitions older than it are dropped.
_writes = [0]
_partitions = {"version": -1, "tables": {}}


def _patch_queries():
    """moto answers every Query by sorting the whole table (`all_items`) and filtering it, so a home page
    call over a table of 15,000 items took seconds. Here a Query sees only its partition: the table's own
    hash entry, or an index partition from a map of the index's hash values, kept until the next write."""
    import inspect

    from moto.dynamodb.models.table import Table

    original_query = Table.query
    signature = inspect.signature(original_query)

    def sort_like_moto(items):
        return sorted(items, key=lambda x: (x.hash_key, x.range_key) if x.range_key else x.hash_key)

    def index_partition(table, attribute, value):
        if _partitions["version"] != _writes[0]:
            _partitions["version"] = _writes[0]
            _partitions["tables"] = {}
        by_attribute = _partitions["tables"].setdefault(id(table), {})
        values = by_attribute.get(attribute)
        if values is None:
            values = {}
            # The table's items as stored, unsorted: only the partition asked for is sorted.
            entries = table.items.values()
            items = (i for e in entries for i in e.values()) if table.range_key_attr else iter(entries)
            for item in items:
                key = item.attrs.get(attribute)
                if key is not None:
                    values.setdefault(key, []).append(item)
            by_attribute[attribute] = values
        return values.get(value, [])

    def query(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
        index_name = arguments.get("index_name")
        conditions = arguments.get("hash_key_conditions") or []
        hash_key = arguments.get("hash_key")
        candidates = None
        if index_name and conditions:
            attribute, value = conditions[0]
            candidates = index_partition(self, attribute, value)
        elif not index_name and hash_key is not None:
            entry = self.items.get(hash_key)
            if entry is None:
                candidates = []
            elif self.range_key_attr:
                candidates = list(entry.values())
            else:
                candidates = [entry]
        if candidates is None:
            return original_query(*bound.args, **bound.kwargs)
        candidates = sort_like_moto(candidates)
        self.all_items = lambda: list(candidates)
        try:
            return original_query(*bound.args, **bound.kwargs)
        finally:
            del self.all_items

    Table.query = query


# ---------------------------------------------------------------------------------------------------------
# State on disk

# DynamoDB calls that change nothing; any other request marks the state as changed.
_READS = {
    "GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems", "DescribeTable", "ListTables",
    "DescribeTimeToLive", "DescribeContinuousBackups", "ListTagsOfResource", "DescribeEndpoints",
}


_LOCK_TYPES = {
    type(threading.Lock()): threading.Lock,
    type(threading.RLock()): threading.RLock,
}


def _picklable(value):
    try:
        pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        return True
    except Exception:
        return False


def _copy_of(prototype):
    return copy.deepcopy(prototype)


def _defaultdict_rebuilt(cls, factory, items, state):
    rebuilt = cls.__new__(cls)
    collections.defaultdict.__init__(rebuilt, factory)
    dict.update(rebuilt, items)
    if state:
        rebuilt.__dict__.update(state)
    return rebuilt


class StatePickler(pickle.Pickler):
    """Pickles moto's state, rebuilding on load what a process holds but pickle cannot write, instead of the
    whole snapshot failing:
      - a lock (SQS queues hold RLocks, and Conditions built on them) becomes a new, unlocked lock of the same
        kind: a lock guards a running process's threads, not data;
      - a defaultdict whose factory is a lambda (SSM's tags) gets a factory that makes a copy of what the
        lambda made at save time (a fresh empty container, in every case moto has);
      - a defaultdict subclass (SSM's parameters) is rebuilt without calling its own __init__, which wants
        arguments that pickle's way of rebuilding a defaultdict does not give."""

    def reducer_override(self, obj):
        fresh = _LOCK_TYPES.get(type(obj))
        if fresh is not None:
            return fresh, ()
        if isinstance(obj, collections.defaultdict):
            factory = obj.default_factory
            unpicklable = factory is not None and not _picklable(factory)
            if unpicklable or type(obj) is not collections.defaultdict:
                if unpicklable:
                    factory = functools.partial(_copy_of, factory())
                return _defaultdict_rebuilt, (type(obj), factory, dict(obj), getattr(obj, "__dict__", None))
        return NotImplemented


class Store:
    """Every moto service's state in one pickle (one pickle keeps objects two services share, shared)."""

    def __init__(self, path):
        self.path = path
        self.changed_at = None
        self.saving = None
        # What GET /_shop/state tells the gateway, which warns on its console when a snapshot fails.
        self.saved_at = None
        self.failures = 0
        self.last_error = None
        # After a failure the saver waits 2, 4, 8 … up to 60 seconds before trying again, so a lasting cause
        # (a full disk, a folder gone) is one log line a minute rather than four a second.
        self.streak = 0
        self.retry_at = 0.0

    def status(self):
        return {
            "keeping": True,
            "path": self.path,
            "savedAt": self.saved_at,
            "failures": self.failures,
            "lastError": self.last_error,
            "unsaved": self.changed_at is not None,
        }

    def _saved(self, error=None):
        if error is None:
            self.saved_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
            self.last_error = None
            self.streak = 0
        else:
            self.failures += 1
            self.last_error = error
            self.streak += 1
            self.retry_at = time.monotonic() + min(60.0, 2.0 ** self.streak)
            log.warning("saving %s failed (%d so far): %s", self.path, self.failures, error)

    def touched(self):
        self.changed_at = time.monotonic()

    @staticmethod
    def _state():
        saved = []
        for backend_dict in list(BackendDict._instances):
            if len(backend_dict) == 0 or backend_dict.service_name == "moto_api":
                continue
            cls = backend_dict.backend
            saved.append((cls.__module__, cls.__qualname__, dict(backend_dict)))
        return {"version": 1, "mail_seq": _mail_seq[0], "services": saved}

    def _write(self, state):
        folder = os.path.dirname(self.path) or "."
        os.makedirs(folder, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".moto-")
        try:
            with os.fdopen(handle, "wb") as f:
                StatePickler(f, protocol=pickle.HIGHEST_PROTOCOL).dump(state)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise

    def save_in_background(self):
        """Forks under the lock (a copy-on-write snapshot, milliseconds) and lets the child write it."""
        reading, writing = os.pipe()
        with _lock:
            self.changed_at = None
            pid = os.fork()
            if pid == 0:  # the child: nothing but pickling and writing, then out without cleanup
                os.close(reading)
                code = 0
                try:
                    self._write(self._state())
                except BaseException as error:
                    os.write(writing, f"{type(error).__name__}: {error}".encode()[:4000])
                    code = 1
                os._exit(code)
        os.close(writing)
        with os.fdopen(reading, "rb") as pipe:
            told = pipe.read().decode(errors="replace")
        _, status = os.waitpid(pid, 0)
        if status != 0:
            self._saved(told or f"the snapshot process ended with status {status}")
            self.touched()  # try again later
        else:
            self._saved()

    def save_now(self):
        with _lock:
            try:
                self._write(self._state())
            except BaseException as error:
                self._saved(f"{type(error).__name__}: {error}")
                raise
            self.changed_at = None
            self._saved()

    def keep_saving(self, quiet=1.0, longest=5.0):
        """Saves once writes have paused for `quiet` seconds, or `longest` seconds after the first one."""
        first = None
        while True:
            time.sleep(0.25)
            changed = self.changed_at
            if changed is None:
                first = None
                continue
            first = first or changed
            now = time.monotonic()
            if now < self.retry_at:
                continue
            if now - changed >= quiet or now - first >= longest:
                first = None
                try:
                    self.save_in_background()
                except Exception as error:
                    log.warning("saving %s failed: %s", self.path, error)

    def load(self):
        # Millions of new objects would start the cycle collector over and over: a third of the load time.
        gc.disable()
        try:
            with open(self.path, "rb") as f:
                state = pickle.load(f)
        except FileNotFoundError:
            return
        except Exception as error:  # an unreadable store is set aside, never fatal
            log.warning("%s unreadable (%s): starting empty", self.path, error)
            os.replace(self.path, self.path + ".unreadable")
            return
        finally:
            gc.enable()
        import importlib

        for module_name, class_name, accounts in state["services"]:
            module = importlib.import_module(module_name)
            package = importlib.import_module(module_name.rsplit(".models", 1)[0])
            cls = getattr(module, class_name)
            live = next(
                (v for m in (module, package) for v in vars(m).values()
                 if isinstance(v, BackendDict) and v.backend is cls),
                None,
            )
            if live is None:
                log.warning("no live backend for %s.%s: its state is dropped", module_name, class_name)
                continue
            dict.clear(live)
            dict.update(live, accounts)
            if live not in BackendDict._instances:
                BackendDict._instances.append(live)
        _mail_seq[0] = state.get("mail_seq", 0)
        for messages in _ses_lists():
            for message in messages:
                if hasattr(message, "shop_seq"):
                    _index_recipients(message)
        # Unpickling leaves freed buffers the allocator keeps; give them back to the system.
        gc.collect()
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except OSError:
            pass


# ---------------------------------------------------------------------------------------------------------
# Injected contention (the flash-sale benchmark's switch)

_faults = {"conflictPercent": 0, "throttlePercent": 0, "keyPrefixes": [], "transactions": 0, "conflicts": 0, "throttles": 0}
_faults_lock = threading.Lock()


def _percent(value):
    number = float(value)
    if not 0 <= number <= 100:
        raise ValueError(f"{value} is not a share from 0 to 100")
    return number


def set_faults(conflict, throttle, prefixes=()):
    prefixes = [str(p) for p in prefixes]
    with _faults_lock:
        _faults.update(conflictPercent=_percent(conflict), throttlePercent=_percent(throttle), keyPrefixes=prefixes,
                       transactions=0, conflicts=0, throttles=0)


def _written_keys(items):
    """The pk of every item a transaction writes or checks."""
    for item in items:
        for action in item.values():
            key = (action or {}).get("Key") or (action or {}).get("Item") or {}
            pk = (key.get("pk") or {}).get("S")
            if pk:
                yield pk


def _injected_fault(environ):
    """For a TransactWriteItems the dice cancel: the 400 DynamoDB would answer, else None. The body is read
    here and put back for moto, so the request goes on untouched when no fault is drawn."""
    if environ.get("HTTP_X_AMZ_TARGET", "").split(".", 1)[-1] != "TransactWriteItems":
        return None
    length = int(environ.get("CONTENT_LENGTH") or 0)
    body = environ["wsgi.input"].read(length) if length else b""
    environ["wsgi.input"] = io.BytesIO(body)
    try:
        items = json.loads(body or b"{}").get("TransactItems") or []
    except ValueError:
        items = []
    with _faults_lock:
        prefixes = _faults["keyPrefixes"]
        if prefixes and not any(pk.startswith(tuple(prefixes)) for pk in _written_keys(items)):
            return None
        _faults["transactions"] += 1
        draw = random.uniform(0, 100)
        if draw < _faults["conflictPercent"]:
            reason, count = "TransactionConflict", "conflicts"
        elif draw < _faults["conflictPercent"] + _faults["throttlePercent"]:
            reason, count = "ProvisionedThroughputExceeded", "throttles"
        else:
            return None
        _faults[count] += 1
    count = len(items) or 1
    struck = random.randrange(count)
    reasons = [{"Code": "None"} for _ in range(count)]
    reasons[struck] = {"Code": reason, "Message": "Injected by the local stack (scripts/moto_serial.py)"}
    codes = ", ".join(r["Code"] for r in reasons)
    return {
        "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
        "message": f"Transaction cancelled, please refer cancellation reasons for specific reasons [{codes}]",
        "CancellationReasons": reasons,
    }


def _faults_answer(environ):
    with _faults_lock:
        before = dict(_faults)
    if environ.get("REQUEST_METHOD") == "POST":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        try:
            asked = json.loads(environ["wsgi.input"].read(length) or b"{}")
            set_faults(asked.get("conflictPercent", 0), asked.get("throttlePercent", 0), asked.get("keyPrefixes") or ())
        except (ValueError, TypeError, AttributeError) as error:
            return 400, {"message": f"faults: {error}"}
    return 200, before


# ---------------------------------------------------------------------------------------------------------
# The server


class SerialDispatcher(DomainDispatcherApplication):
    store = None

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/_shop/state":
            status = self.store.status() if self.store is not None else {"keeping": False}
            data = json.dumps(status).encode()
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
            return [data]
        if path == "/_shop/faults":
            status, body = _faults_answer(environ)
            data = json.dumps(body).encode()
            start_response(
                f"{status} {'OK' if status == 200 else 'Bad Request'}",
                [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
            )
            return [data]
        fault = _injected_fault(environ)
        if fault is not None:
            data = json.dumps(fault).encode()
            start_response("400 Bad Request", [("Content-Type", "application/x-amz-json-1.0"), ("Content-Length", str(len(data)))])
            return [data]
        if path == "/_shop/mails":
            status, body = mails_page(environ.get("QUERY_STRING", ""))
            data = json.dumps(body).encode()
            start_response(
                f"{status} {'OK' if status == 200 else 'Bad Request'}",
                [("Content-Type", "application/json"), ("Content-Length", str(len(data)))],
            )
            return [data]
        with _lock:
            if _changes(environ):
                _writes[0] += 1
                if self.store is not None:
                    self.store.touched()
            # moto builds each response whole, so the work is done before the lock is released.
            return list(super().__call__(environ, start_response))


def _changes(environ):
    if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
        return False
    target = environ.get("HTTP_X_AMZ_TARGET", "")
    if target.startswith("DynamoDB_"):
        return target.split(".", 1)[-1] not in _READS
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, required=True)
    parser.add_argument("--state")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    # A log record per request is work and memory for lines nobody reads.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    os.environ.setdefault("MOTO_PORT", str(args.port))
    set_faults(os.environ.get("LOCAL_DYNAMODB_CONFLICT_PERCENT") or 0, os.environ.get("LOCAL_DYNAMODB_THROTTLE_PERCENT") or 0)
    _stop_tracking_instances()
    _patch_ses()
    _patch_transactions()
    _patch_queries()

    app = SerialDispatcher(create_backend_app)
    if args.state:
        store = Store(os.path.abspath(args.state))
        store.load()
        app.store = store
        threading.Thread(target=store.keep_saving, name="saver", daemon=True).start()

        stopping = []

        def stop(signum, frame):
            # Ctrl-C reaches this process and the gateway, which then sends SIGTERM: save once.
            if stopping:
                return
            stopping.append(signum)
            if store.changed_at is not None:
                try:
                    store.save_now()
                except BaseException:
                    os._exit(1)  # logged by save_now: the last changes are not on disk
            os._exit(0)

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
    else:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))

    run_simple(args.host, args.port, app, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
