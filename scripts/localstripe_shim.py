"""What localstripe lacks for the shop's money paths, added in its own process (docs/api.md, "Local gateway
only", says what for the local stack; docs/decisions.md, "moto behind a wrapper, localstripe behind a shim",
says why).

localstripe ignores `Idempotency-Key`, sends only `payment_intent.succeeded` and `payment_intent.payment_failed`,
keeps no refunded amount on a charge, refunds more than was charged, charges no fees, and knows neither disputes
nor fraud warnings. `install(app)` patches its resources and adds a middleware and a few routes, so the local
gateway and the tests talk to something that behaves like Stripe on the paths the shop depends on:

- `Idempotency-Key` on a POST: the first answer (under 500) is kept for 24 hours per secret key and replayed
  for the same method, path and body (`Idempotent-Replayed: true`); the same key with other parameters is 400
  `idempotency_error`, as Stripe answers.
- Charges carry `amount_refunded`, `refunded` and `disputed`; a refund without `amount` takes what is left,
  one above it is 400, a charge refunded in full is 400 `charge_already_refunded`; refunds take Stripe's
  `reason` values and keep their `metadata`.
- Events Stripe sends and localstripe does not: `refund.created`, `charge.refunded` (with `amount_refunded`),
  `refund.updated`, `refund.failed`, `payment_intent.canceled`, `charge.dispute.created`,
  `charge.dispute.closed`, `radar.early_fraud_warning.created`. They are delivered like localstripe's own
  (to the webhooks registered under /_config/webhooks/) and listed by `GET /_shim/events`.
- Balance transactions as the reconciliation reads them: a fee on every charge (1.5% + 20p, Stripe's
  standard UK card price, as a stand-in), `refund_failure`, `adjustment` (disputes) and `payout` entries,
  and `GET /v1/balance_transactions` filtered by `created[...]` and `type`; payouts in pounds sterling.
- PaymentIntents keep `description`, `shipping`, `statement_descriptor` and `receipt_email`.

Control routes (they need a secret key like the API; each acts for the key that calls it):

  POST   /_shim/faults                 mode=down|slow, count (1), path (a prefix), method, seconds (slow: 2)
                                       down: the next calls answer 503 and do nothing; slow: they are
                                       carried out, then answered after `seconds` (a client that gave up
                                       never hears that they were done)
  DELETE /_shim/faults                 clears the caller's faults
  POST   /_shim/refunds/{id}           status=pending|succeeded|failed (failure_reason): refund.updated, and
                                       refund.failed with a failure
  POST   /_shim/disputes               payment_intent or charge, reason, amount: charge.dispute.created
  POST   /_shim/disputes/{id}/close    status=won|lost: charge.dispute.closed
  POST   /_shim/early_fraud_warnings   payment_intent or charge, fraud_type: radar.early_fraud_warning.created
  GET    /_shim/events?after=evt_...   the events made after that one (all when absent), oldest first;
         &payment_intent=pi_...        only those about that PaymentIntent (it, its charge, refunds, disputes)
  POST   /_shim/events/{id}/resend     delivers an event again (Stripe retries deliveries too)
"""
import asyncio
import hashlib
import time

from aiohttp import web

from localstripe import server
from localstripe.errors import UserError
from localstripe.resources import (
    BalanceTransaction,
    Charge,
    Event,
    List,
    PaymentIntent,
    Payout,
    Refund,
    StripeObject,
    store,
    try_convert_to_int,
)
from localstripe.webhooks import schedule_webhook

# How long a kept answer to an Idempotency-Key is replayed (Stripe keeps them at least 24 hours).
IDEMPOTENCY_SECONDS = 24 * 60 * 60
# Stripe's standard UK card price, charged on every charge here as a stand-in (pence).
FEE_PERCENT = 1.5
FEE_FIXED = 20
# What a dispute costs the shop here (a stand-in for the card network's fee, pence).
DISPUTE_FEE = 2000
REFUND_REASONS = ("duplicate", "fraudulent", "requested_by_customer")

_kept = {}  # (secret key, idempotency key) -> (fingerprint, status, body, at)
_faults = []  # dicts: key, mode, count, path, method, seconds


def emit(kind, obj):
    """Makes the event Stripe would send for `obj` and delivers it to the registered webhooks."""
    event = Event(kind, obj)
    schedule_webhook(event)
    return event


def _error(status, message, **contents):
    return UserError(status, message, contents or None)


# ---------------------------------------------------------------------------------------------------------
# Charges: what has been refunded and disputed, as Stripe's Charge says.


def _refunds_of(charge_id):
    return [r for key, r in list(store.items()) if key.startswith("refund:") and r.charge == charge_id]


def _amount_refunded(charge):
    return sum(r.amount for r in _refunds_of(charge.id) if getattr(r, "status", "succeeded") in ("succeeded", "pending"))


Charge.amount_refunded = property(_amount_refunded)
Charge.refunded = property(lambda self: self.amount > 0 and _amount_refunded(self) >= self.amount)
Charge.disputed = property(
    lambda self: any(key.startswith("dispute:") and d.charge == self.id for key, d in list(store.items()))
)


def _charge_of(charge=None, payment_intent=None):
    """The charge a refund, dispute or warning is about: named, or the PaymentIntent's latest."""
    if charge is not None:
        if not isinstance(charge, str) or not charge.startswith("ch_"):
            raise _error(400, "Invalid charge", param="charge")
        return Charge._api_retrieve(charge)
    if not isinstance(payment_intent, str) or not payment_intent.startswith("pi_"):
        raise _error(400, "Expected charge or payment_intent", param="payment_intent")
    intent = PaymentIntent._api_retrieve(payment_intent)
    if intent.latest_charge is None or intent.latest_charge.status != "succeeded":
        raise _error(400, f"This PaymentIntent ({payment_intent}) does not have a successful charge to refund.",
                     code="charge_not_refundable")
    return intent.latest_charge


# ---------------------------------------------------------------------------------------------------------
# Refunds: never more than is left, Stripe's reasons, and the events.

_refund_init = Refund.__init__


def refund_init(self, charge=None, payment_intent=None, amount=None, metadata=None, reason=None, **kwargs):
    if kwargs:
        raise _error(400, "Received unknown parameter: " + ", ".join(kwargs))
    if reason is not None and reason not in REFUND_REASONS:
        raise _error(400, "Invalid reason: must be one of " + ", ".join(REFUND_REASONS), param="reason")
    charge_obj = _charge_of(charge, payment_intent)
    left = charge_obj.amount - _amount_refunded(charge_obj)
    if left <= 0:
        raise _error(400, f"Charge {charge_obj.id} has already been refunded.", code="charge_already_refunded")
    amount = try_convert_to_int(amount)
    if amount is None:
        amount = left
    elif isinstance(amount, int) and amount > left:
        raise _error(400, f"Refund amount ({amount}) is greater than unrefunded amount on charge ({left})",
                     code="amount_too_large", param="amount")
    _refund_init(self, charge=None if payment_intent else charge, payment_intent=payment_intent, amount=amount,
                 metadata=metadata)
    if self.payment_intent is None:
        self.payment_intent = charge_obj.payment_intent
    self.reason = reason
    self.failure_reason = None


Refund.__init__ = refund_init


def _refund_create(cls, **data):
    refund = cls(**data)
    emit("refund.created", refund)
    emit("charge.refunded", Charge._api_retrieve(refund.charge))
    return refund


Refund._api_create = classmethod(_refund_create)


async def set_refund_status(request):
    data = await server.get_post_data(request) or {}
    refund = Refund._api_retrieve(request.match_info["id"])
    status = data.get("status")
    if status not in ("pending", "succeeded", "failed"):
        raise _error(400, "status must be pending, succeeded or failed", param="status")
    if refund.status == "failed":
        raise _error(400, "A failed refund cannot change again")
    refund.status = status
    if status == "failed":
        refund.failure_reason = data.get("failure_reason") or "expired_or_canceled_card"
        BalanceTransaction(amount=refund.amount, currency=refund.currency, description="REFUND FAILURE",
                           reporting_category="refund_failure", source=refund.id, type="refund_failure")
        emit("refund.failed", refund)
    emit("refund.updated", refund)
    if status == "failed":
        emit("charge.refunded", Charge._api_retrieve(refund.charge))
    store["refund:" + refund.id] = refund
    return server.json_response(refund._export())


# ---------------------------------------------------------------------------------------------------------
# PaymentIntents: the fields the shop sends that localstripe refuses, and the cancel's event.

INTENT_EXTRAS = ("description", "shipping", "statement_descriptor", "statement_descriptor_suffix", "receipt_email")
_intent_init = PaymentIntent.__init__


def intent_init(self, **kwargs):
    extras = {name: kwargs.pop(name) for name in INTENT_EXTRAS if name in kwargs}
    _intent_init(self, **kwargs)
    for name in INTENT_EXTRAS:
        setattr(self, name, extras.get(name))


PaymentIntent.__init__ = intent_init
_intent_cancel = PaymentIntent._api_cancel.__func__


def _cancel(cls, id, cancellation_reason=None, **kwargs):
    intent = _intent_cancel(cls, id, **kwargs)
    intent.cancellation_reason = cancellation_reason
    emit("payment_intent.canceled", intent)
    return intent


PaymentIntent._api_cancel = classmethod(_cancel)


# ---------------------------------------------------------------------------------------------------------
# Balance transactions: fees, the kinds Stripe has beyond charge and refund, and the filters the report uses.


def balance_init(self, amount=None, currency=None, description=None, exchange_rate=None, reporting_category=None,
                 source=None, type=None, fee=None, **kwargs):
    if kwargs:
        raise _error(400, "Received unknown parameter: " + ", ".join(kwargs))
    StripeObject.__init__(self)
    self.amount = int(amount)
    self.available_on = self.created
    self.currency = currency
    self.description = description
    self.exchange_rate = exchange_rate
    if fee is None:
        fee = round(self.amount * FEE_PERCENT / 100) + FEE_FIXED if type == "charge" else 0
    self.fee = fee
    self.fee_details = [{"amount": fee, "currency": currency, "type": "stripe_fee"}] if fee else []
    self.reporting_category = reporting_category or type
    self.source = source
    self.status = "available"
    self.type = type


def balance_list(cls, url, created=None, type=None, payout=None, limit=None, starting_after=None, **kwargs):
    if kwargs:
        raise _error(400, "Received unknown parameter: " + ", ".join(kwargs))
    filters = []
    if isinstance(created, dict):
        for op, test in (("gt", lambda a, b: a > b), ("gte", lambda a, b: a >= b),
                         ("lt", lambda a, b: a < b), ("lte", lambda a, b: a <= b)):
            if op in created:
                bound = try_convert_to_int(created[op])
                filters.append(lambda obj, bound=bound, test=test: test(obj.created, bound))
    elif created is not None:
        exact = try_convert_to_int(created)
        filters.append(lambda obj: obj.created == exact)
    if type is not None:
        filters.append(lambda obj: obj.type == type)
    li = List(url, limit=limit, starting_after=starting_after)
    li._list = sorted((value for key, value in list(store.items()) if key.startswith("balance_transaction:")
                       and all(f(value) for f in filters)), key=lambda b: b.created, reverse=True)
    return li


BalanceTransaction.__init__ = balance_init
BalanceTransaction._api_list_all = classmethod(balance_list)

_payout_init = Payout.__init__


def payout_init(self, currency=None, **kwargs):
    # localstripe takes euros only; the shop is paid out in pounds.
    _payout_init(self, currency="eur" if currency == "gbp" else currency, **kwargs)
    self.currency = currency
    txn = BalanceTransaction(amount=-self.amount, currency=currency, description="STRIPE PAYOUT",
                             reporting_category="payout", source=self.id, type="payout")
    self.balance_transaction = txn.id


Payout.__init__ = payout_init


# ---------------------------------------------------------------------------------------------------------
# Disputes and early fraud warnings, which the shop only ever hears of through events.


class Dispute(StripeObject):
    object = "dispute"
    _id_prefix = "dp_"

    def __init__(self, charge=None, payment_intent=None, reason=None, amount=None, **kwargs):
        if kwargs:
            raise _error(400, "Received unknown parameter: " + ", ".join(kwargs))
        charge_obj = _charge_of(charge, payment_intent)
        amount = try_convert_to_int(amount) if amount is not None else charge_obj.amount
        super().__init__()
        self.amount = amount
        self.charge = charge_obj.id
        self.payment_intent = charge_obj.payment_intent
        self.currency = charge_obj.currency
        self.reason = reason or "fraudulent"
        self.status = "needs_response"
        self.is_charge_refundable = False
        self.metadata = {}
        BalanceTransaction(amount=-amount, currency=self.currency, description="DISPUTE",
                           reporting_category="dispute", source=self.id, type="adjustment", fee=DISPUTE_FEE)


class EarlyFraudWarning(StripeObject):
    object = "radar.early_fraud_warning"
    _id_prefix = "issfr_"

    def __init__(self, charge=None, payment_intent=None, fraud_type=None, **kwargs):
        if kwargs:
            raise _error(400, "Received unknown parameter: " + ", ".join(kwargs))
        charge_obj = _charge_of(charge, payment_intent)
        super().__init__()
        self.actionable = True
        self.charge = charge_obj.id
        self.payment_intent = charge_obj.payment_intent
        self.fraud_type = fraud_type or "made_with_stolen_card"


async def open_dispute(request):
    data = await server.get_post_data(request) or {}
    dispute = Dispute(**data)
    emit("charge.dispute.created", dispute)
    return server.json_response(dispute._export())


async def close_dispute(request):
    data = await server.get_post_data(request) or {}
    dispute = Dispute._api_retrieve(request.match_info["id"])
    status = data.get("status")
    if status not in ("won", "lost"):
        raise _error(400, "status must be won or lost", param="status")
    if dispute.status in ("won", "lost"):
        raise _error(400, "This dispute is closed already")
    dispute.status = status
    if status == "won":
        BalanceTransaction(amount=dispute.amount, currency=dispute.currency, description="DISPUTE REVERSAL",
                           reporting_category="dispute_reversal", source=dispute.id, type="adjustment")
    store["dispute:" + dispute.id] = dispute
    emit("charge.dispute.closed", dispute)
    return server.json_response(dispute._export())


async def warn_of_fraud(request):
    data = await server.get_post_data(request) or {}
    warning = EarlyFraudWarning(**data)
    emit("radar.early_fraud_warning.created", warning)
    return server.json_response(warning._export())


# ---------------------------------------------------------------------------------------------------------
# Events as a feed, for tests that deliver them in their own order.


async def list_events(request):
    after = request.query.get("after")
    intent = request.query.get("payment_intent")
    events = [value for key, value in list(store.items()) if key.startswith("event:")]
    if after:
        ids = [e.id for e in events]
        events = events[ids.index(after) + 1:] if after in ids else events
    if intent:
        events = [e for e in events if intent in (e.data["object"].get("id"), e.data["object"].get("payment_intent"))]
    return server.json_response({"object": "list", "data": [e._export() for e in events]})


async def resend_event(request):
    event = Event._api_retrieve(request.match_info["id"])
    schedule_webhook(event)
    return server.json_response(event._export())


# ---------------------------------------------------------------------------------------------------------
# Faults and idempotency, around every API call.


def _secret_key(request):
    # Bearer or Basic (curl -u key:), as localstripe reads it; anything else is no key.
    try:
        return server.get_api_key(request) or ""
    except Exception:  # a malformed header: localstripe's own check answers it 401
        return ""


async def add_fault(request):
    data = await server.get_post_data(request, remove_auth=False) or {}
    mode = data.get("mode")
    if mode not in ("down", "slow"):
        raise _error(400, "mode must be down or slow", param="mode")
    count = try_convert_to_int(data.get("count", 1))
    seconds = float(data.get("seconds", 2))
    if not isinstance(count, int) or count < 1 or not 0 <= seconds <= 60:
        raise _error(400, "count must be 1 or more, seconds from 0 to 60")
    _faults.append({"key": _secret_key(request), "mode": mode, "count": count, "path": data.get("path") or "/v1/",
                    "method": (data.get("method") or "").upper(), "seconds": seconds})
    return server.json_response({"faults": sum(1 for f in _faults if f["key"] == _secret_key(request))})


async def clear_faults(request):
    key = _secret_key(request)
    _faults[:] = [f for f in _faults if f["key"] != key]
    return server.json_response({"faults": 0})


def _take_fault(request):
    key = _secret_key(request)
    for fault in _faults:
        if (fault["key"] == key and fault["count"] > 0 and request.path.startswith(fault["path"])
                and fault["method"] in ("", request.method)):
            fault["count"] -= 1
            if fault["count"] == 0:
                _faults.remove(fault)
            return fault
    return None


async def _answer(request, handler):
    try:
        return await handler(request)
    except UserError as error:
        return error.to_response()


def _forget_old(now):
    for name in [name for name, kept in _kept.items() if now - kept[3] > IDEMPOTENCY_SECONDS]:
        del _kept[name]


@web.middleware
async def shim_middleware(request, handler):
    if not request.path.startswith("/v1/"):
        return await _answer(request, handler)
    fault = _take_fault(request)
    if fault and fault["mode"] == "down":
        return server.json_response({"error": {"type": "api_error", "message": "Stripe is down (the shim's fault)"}},
                                    status=503)
    idempotency_key = request.headers.get("Idempotency-Key")
    if request.method == "POST" and idempotency_key:
        body = await request.read()
        fingerprint = hashlib.sha256(request.method.encode() + request.path_qs.encode() + b"\n" + body).hexdigest()
        name = (_secret_key(request), idempotency_key)
        now = time.time()
        _forget_old(now)
        kept = _kept.get(name)
        if kept and kept[0] != fingerprint:
            response = server.json_response({"error": {
                "type": "idempotency_error",
                "message": "Keys for idempotent requests can only be used with the same parameters they were "
                           "first used with.",
            }}, status=400)
        elif kept:
            response = web.Response(body=kept[2], status=kept[1], content_type="application/json",
                                    headers={"Idempotent-Replayed": "true"})
        else:
            response = await _answer(request, handler)
            if response.status < 500:
                _kept[name] = (fingerprint, response.status, response.body, now)
    else:
        response = await _answer(request, handler)
    if fault and fault["mode"] == "slow":
        await asyncio.sleep(fault["seconds"])
    return response


def install(app):
    """Patches are applied on import; this adds the middleware and the routes to localstripe's app."""
    app.middlewares.insert(0, shim_middleware)
    for cls, path in ((Dispute, "/v1/disputes"), (EarlyFraudWarning, "/v1/radar/early_fraud_warnings")):
        app.router.add_get(path + "/{id}", server.api_retrieve(cls, path))
        app.router.add_get(path, server.api_list_all(cls, path))
    app.router.add_post("/_shim/faults", add_fault)
    app.router.add_delete("/_shim/faults", clear_faults)
    app.router.add_post("/_shim/refunds/{id}", set_refund_status)
    app.router.add_post("/_shim/disputes", open_dispute)
    app.router.add_post("/_shim/disputes/{id}/close", close_dispute)
    app.router.add_post("/_shim/early_fraud_warnings", warn_of_fraud)
    app.router.add_get("/_shim/events", list_events)
    app.router.add_post("/_shim/events/{id}/resend", resend_event)
    return app

