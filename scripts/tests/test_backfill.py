"""make backfill-counts and make reconcile: the function is asked for its task, and a failure stops loudly."""

import io
import json
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import deploy  # noqa: E402


class Lambda:
    """Lambda's invoke as boto3 answers it (moto runs functions only in Docker, which this machine lacks)."""

    def __init__(self, reply: dict, error: str | None = None):
        self.reply, self.error, self.calls = reply, error, []

    def invoke(self, FunctionName, Payload):
        self.calls.append((FunctionName, json.loads(Payload)))
        answer = {"StatusCode": 200, "Payload": io.BytesIO(json.dumps(self.reply).encode())}
        if self.error:
            answer["FunctionError"] = self.error
        return answer


class Backfill(unittest.TestCase):
    def test_the_sender_is_asked_for_the_recount_and_its_counts_are_answered(self):
        lam = Lambda({"listCounts": {"Newsletter": 5, "Newsletter|Offers and new drinks": 3}})
        counts = deploy.backfill_counts(lam, "shop-SenderFunction-abc")
        self.assertEqual(lam.calls, [("shop-SenderFunction-abc", {"task": "backfill-counts"})])
        self.assertEqual(counts["listCounts"]["Newsletter"], 5)

    def test_a_failed_recount_stops_with_its_reason(self):
        lam = Lambda({"errorMessage": "Sign-ups kept moving the list counts"}, error="Unhandled")
        with self.assertRaises(deploy.Stop) as stopped:
            deploy.backfill_counts(lam, "shop-SenderFunction-abc")
        self.assertIn("Sign-ups kept moving", str(stopped.exception))


class Reconcile(unittest.TestCase):
    def test_the_expiry_function_is_asked_for_the_month_and_its_text_is_answered(self):
        lam = Lambda({"report": {"month": "2026-03"}, "text": "Reconciliation for 2026-03\n"})
        answer = deploy.reconcile(lam, "shop-OrdersExpiryFunction-abc", "2026-03")
        self.assertEqual(lam.calls, [("shop-OrdersExpiryFunction-abc", {"task": "reconcile", "month": "2026-03"})])
        self.assertTrue(answer["text"].startswith("Reconciliation for 2026-03"))

    def test_a_month_that_is_not_yyyy_mm_is_refused_before_anything_is_asked(self):
        lam = Lambda({})
        for month in ("2026-13", "March", "2026-3"):
            with self.assertRaises(deploy.Stop):
                deploy.reconcile(lam, "f", month)
        self.assertEqual(lam.calls, [])

    def test_a_failed_reconciliation_stops_with_its_reason(self):
        lam = Lambda({"errorMessage": "The payment provider could not be reached"}, error="Unhandled")
        with self.assertRaises(deploy.Stop) as stopped:
            deploy.reconcile(lam, "f", "2026-03")
        self.assertIn("could not be reached", str(stopped.exception))


if __name__ == "__main__":
    unittest.main()
