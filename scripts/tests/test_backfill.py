"""make backfill-counts: the sender function is asked for the recount, and a failure stops loudly."""

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


if __name__ == "__main__":
    unittest.main()
