"""The CloudFront function that gives the storefront's unknown paths the 404 page with status 404
(template.yaml, SiteRoutesFunction): its rules are frontend/src/app/knownPaths.json's (which the local gateway
applies and the front end's tests hold against its router), it is attached to the storefront's requests and
responses only, and its code, run in Node as CloudFront would run it, sorts the file's examples."""

import json
import re
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import check_template  # noqa: E402

TEMPLATE = check_template.load(check_template.ROOT / "template.yaml")
TABLE = json.loads((check_template.ROOT / "frontend/src/app/knownPaths.json").read_text())
FUNCTION = TEMPLATE["Resources"]["SiteRoutesFunction"]
CODE = FUNCTION["Properties"]["FunctionCode"]

# Calls the function's handler once per event given on stdin, as CloudFront Functions would.
HARNESS = """
const events = JSON.parse(require('fs').readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(events.map((event) => handler(event))));
"""


def run(events: list[dict]) -> list[dict]:
    answer = subprocess.run(
        ["node", "-e", CODE + HARNESS], input=json.dumps(events), capture_output=True, text=True, check=True
    )
    return json.loads(answer.stdout)


def viewer_request(uri: str) -> dict:
    return {
        "version": "1.0",
        "context": {"eventType": "viewer-request"},
        "viewer": {"ip": "198.51.100.7"},
        "request": {"method": "GET", "uri": uri, "querystring": {}, "headers": {}, "cookies": {}},
    }


def viewer_response(uri: str, status: int = 200) -> dict:
    event = viewer_request(uri)
    event["context"]["eventType"] = "viewer-response"
    event["response"] = {"statusCode": status, "statusDescription": "OK", "headers": {}, "cookies": {}}
    return event


@unittest.skipUnless(shutil.which("node"), "Node runs the CloudFront function's code")
class SiteRoutesFunction(unittest.TestCase):
    def test_its_rules_are_the_known_paths_table(self):
        found = re.search(r"var RULES = (\[.*?\]);", CODE, re.S)
        self.assertIsNotNone(found, "the function declares var RULES = [...];")
        self.assertEqual(json.loads(found.group(1)), TABLE["rules"])

    def test_it_runs_on_the_storefronts_requests_and_responses_only(self):
        config = TEMPLATE["Resources"]["Distribution"]["Properties"]["DistributionConfig"]
        associations = config["DefaultCacheBehavior"]["FunctionAssociations"]
        self.assertEqual(
            sorted((a["EventType"], a["FunctionARN"]["Fn::GetAtt"][0]) for a in associations),
            [("viewer-request", "SiteRoutesFunction"), ("viewer-response", "SiteRoutesFunction")],
        )
        for behaviour in config["CacheBehaviors"]:
            self.assertNotIn("FunctionAssociations", behaviour, behaviour["PathPattern"])
        self.assertEqual(FUNCTION["Properties"]["FunctionConfig"]["Runtime"], "cloudfront-js-2.0")
        self.assertLess(len(CODE.encode()), 10 * 1024, "CloudFront Functions take at most 10 KB of code")

    def test_pages_get_the_app_and_unknown_paths_the_404_page(self):
        known, unknown = TABLE["examples"]["known"], TABLE["examples"]["unknown"]
        # The viewer's uri carries no query string (CloudFront passes it apart).
        uris = [path.split("?")[0] for path in known + unknown]
        rewritten = [request["uri"] for request in run([viewer_request(uri) for uri in uris])]
        self.assertEqual(rewritten, ["/index.html"] * len(known) + ["/404.html"] * len(unknown))

    def test_files_pass_untouched(self):
        uris = ["/assets/index-1a2b.js", "/favicon.svg", "/404.html", "/index.html", "/assets/gone-9z.js"]
        self.assertEqual([r["uri"] for r in run([viewer_request(uri) for uri in uris])], uris)

    def test_the_404_page_goes_out_with_status_404(self):
        # Whether CloudFront hands the response function the viewer's uri or the rewritten one, the answer is the same.
        events = [
            viewer_response("/404.html"),
            viewer_response("/no/such/page"),
            viewer_response("/about/anything"),
            viewer_response("/index.html"),
            viewer_response("/shop/drinks/"),
            viewer_response("/drinks/p-1"),
            viewer_response("/assets/index-1a2b.js"),
            # A revalidated copy stays a 304 (no body to show).
            viewer_response("/404.html", 304),
        ]
        self.assertEqual([r["statusCode"] for r in run(events)], [404, 404, 404, 200, 200, 200, 200, 304])


if __name__ == "__main__":
    unittest.main()
