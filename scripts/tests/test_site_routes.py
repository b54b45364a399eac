"""The CloudFront function that gives the storefront's pages their prerendered copy or the app and unknown paths
the 404 page with status 404 (template.yaml, SiteRoutesFunction): its rules are frontend/src/app/knownPaths.json's
(which the local gateway applies and the front end's tests hold against its router), it is attached to the
storefront's requests and responses only, and its code, run in Node as CloudFront would run it, sorts the file's
examples. A page's copy is asked for only when the store make publish fills (PagesStore) lists it; the harness
stands in a store whose keys each test sets, as Node has no `cloudfront` module."""

import json
import re
import shutil
import subprocess
import sys
import unittest
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import check_template  # noqa: E402

TEMPLATE = check_template.load(check_template.ROOT / "template.yaml")
TABLE = json.loads((check_template.ROOT / "frontend/src/app/knownPaths.json").read_text())
FUNCTION = TEMPLATE["Resources"]["SiteRoutesFunction"]
CODE = FUNCTION["Properties"]["FunctionCode"]

IMPORT = "import cf from 'cloudfront';\n"

# CloudFront's `cloudfront` module, for Node: cf.kvs() is a store holding the keys given on stdin, whose
# exists() records each key asked for, and throws, rejects or answers a non-boolean when told to.
STUB = """
const given = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const asked = [];
const cf = {
  kvs: () => ({
    exists: (key) => {
      asked.push(key);
      if (given.store === 'throws') { throw new Error('the store is unreachable'); }
      if (given.store === 'rejects') { return Promise.reject(new Error('the store timed out')); }
      if (given.store === 'odd') { return Promise.resolve('1'); }
      return Promise.resolve(given.store.includes(key));
    },
  }),
};
"""

# Calls the handler once per event, one after the other, as CloudFront Functions would.
HARNESS = """
(async () => {
  const results = [];
  for (const event of given.events) { results.push(await handler(event)); }
  process.stdout.write(JSON.stringify({ results, asked }));
})();
"""


def run_recorded(events: list[dict], store) -> tuple[list[dict], list[str]]:
    """The handler's answers to the events and the store keys it asked for; store: the keys make publish
    wrote, or "throws"/"rejects"/"odd" for a store that fails or answers oddly."""
    if not CODE.startswith(IMPORT):
        raise AssertionError("the function starts by importing the cloudfront module")
    answer = subprocess.run(
        ["node", "-e", STUB + CODE[len(IMPORT) :] + HARNESS],
        input=json.dumps({"events": events, "store": store}),
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(answer.stdout)
    return found["results"], found["asked"]


def run(events: list[dict], store=()) -> list[dict]:
    return run_recorded(events, list(store) if isinstance(store, (list, tuple, set)) else store)[0]


def store_key(uri: str) -> str:
    """PagesStore's key for a copy's uri: its S3 object key (what dist/prerendered.json lists)."""
    return urllib.parse.unquote(uri.removeprefix("/"))


def querystring(query: str) -> dict:
    """The query as CloudFront Functions 2.0 hands it over: each name once, its value as sent (not decoded),
    a repeated name's values in multiValue."""
    found: dict = {}
    for pair in filter(None, query.split("&")):
        name, _, value = pair.partition("=")
        if name in found:
            entry = found[name]
            entry.setdefault("multiValue", [{"value": entry["value"]}]).append({"value": value})
        else:
            found[name] = {"value": value}
    return found


def viewer_request(uri: str) -> dict:
    """The event of a viewer's request for uri, a path with its query if any (CloudFront passes them apart)."""
    path, _, query = uri.partition("?")
    return {
        "version": "1.0",
        "context": {"eventType": "viewer-request"},
        "viewer": {"ip": "198.51.100.7"},
        "request": {"method": "GET", "uri": path, "querystring": querystring(query), "headers": {}, "cookies": {}},
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

    def test_pages_get_their_prerendered_copy_or_the_app_and_unknown_paths_the_404_page(self):
        # Every known example is in "prerendered", with the file it gets (null: the app).
        pages, unknown = TABLE["examples"]["prerendered"], TABLE["examples"]["unknown"]
        self.assertLessEqual(set(TABLE["examples"]["known"]), set(pages))
        paths = list(pages) + unknown
        store = {file for file in pages.values() if file}
        rewritten = [request["uri"] for request in run([viewer_request(path) for path in paths], store)]
        expected = ["/" + file if file else "/index.html" for file in pages.values()] + ["/404.html"] * len(unknown)
        self.assertEqual(dict(zip(paths, rewritten)), dict(zip(paths, expected)))

    def test_drinks_categories_and_content_pages_get_their_prerendered_copy(self):
        cases = {
            "/drinks/p-mango": "/drinks/p-mango/index.html",
            "/drinks/p-mango?qty=3": "/drinks/p-mango/index.html",
            "/contact/drinks-contact/": "/contact/drinks-contact/index.html",
            "/drinks/policies/terms": "/drinks/policies/terms/index.html",
            "/shop/drinks/": "/shop/drinks/index.html",
            "/shop/drinks/?category=Soft%20drinks": "/shop/drinks/category/Soft_20_drinks/index.html",
            "/shop/drinks/?category=Soft+drinks": "/shop/drinks/category/Soft_20_drinks/index.html",
            "/shop/drinks/?category=Fizz%2BPop": "/shop/drinks/category/Fizz_2b_Pop/index.html",
            "/shop/drinks/?category=Caf%C3%A9": "/shop/drinks/category/Caf_e9_/index.html",
            "/shop/drinks/?category=%F0%9F%8D%8B": "/shop/drinks/category/_d83c__df4b_/index.html",
            "/shop/drinks/?category=..%2F..": "/shop/drinks/category/_2e__2e__2f__2e__2e_/index.html",
            # The shop with any other query, a category that does not decode, and pages without a copy: the app.
            "/shop/drinks/?sort=price-asc": "/index.html",
            "/shop/drinks/?category=Soft&sort=price-asc": "/index.html",
            "/shop/drinks/?category=a&category=b": "/index.html",
            "/shop/drinks/?category=%E0%A4%A": "/index.html",
            "/shop/drinks/?category=": "/index.html",
            # A drink page whose id cannot be a page: the app, served with 404 (it says "Drink not found").
            "/drinks/%2e%2e": "/app-404.html",
            "/drinks/a%2Fb": "/app-404.html",
            "/account/order": "/index.html",
            "/account/profile?tab=1": "/index.html",
            "/myorder/0f9a7c2e": "/index.html",
            "/checkout": "/index.html",
            "/": "/index.html",
            # Unknown paths stay unknown, whatever the query.
            "/drinks/p-mango/extra?category=x": "/404.html",
            "/shop": "/404.html",
        }
        store = {store_key(uri) for uri in cases.values() if uri not in ("/index.html", "/404.html")}
        rewritten = [request["uri"] for request in run([viewer_request(path) for path in cases], store)]
        self.assertEqual(dict(zip(cases, rewritten)), cases)

    def test_a_copy_is_asked_for_only_when_the_store_lists_it(self):
        # Published: drinks/p-mango and the Soft drinks category; p-new was added since the last publish.
        store = ["drinks/p-mango/index.html", "shop/drinks/category/Soft_20_drinks/index.html"]
        cases = {
            "/drinks/p-mango": "/drinks/p-mango/index.html",
            "/drinks/p-new": "/app-404.html",
            "/shop/drinks/?category=Soft+drinks": "/shop/drinks/category/Soft_20_drinks/index.html",
            "/shop/drinks/?category=Soft%20drinks": "/shop/drinks/category/Soft_20_drinks/index.html",
            "/shop/drinks/?category=Fizz%2BPop": "/index.html",
            "/shop/drinks/": "/index.html",
            "/about/drinks-about-us": "/index.html",
        }
        answers, asked = run_recorded([viewer_request(path) for path in cases], store)
        self.assertEqual(dict(zip(cases, (r["uri"] for r in answers))), cases)
        self.assertEqual(
            asked,
            [
                "drinks/p-mango/index.html",
                "drinks/p-new/index.html",
                "shop/drinks/category/Soft_20_drinks/index.html",
                "shop/drinks/category/Soft_20_drinks/index.html",
                "shop/drinks/category/Fizz_2b_Pop/index.html",
                "shop/drinks/index.html",
                "about/drinks-about-us/index.html",
            ],
        )

    def test_the_store_key_is_the_object_key_with_its_segments_decoded(self):
        # S3 decodes the uri into the object key; prerender-pages.mjs writes the file under the decoded name.
        store = ["drinks/p mango/index.html", "shop/drinks/category/Caf_e9_/index.html", "shop/drinks/category/_d83c__df4b_/index.html"]
        cases = {
            "/drinks/p%20mango": "/drinks/p%20mango/index.html",
            "/drinks/p+mango": "/app-404.html",
            "/shop/drinks/?category=Caf%C3%A9": "/shop/drinks/category/Caf_e9_/index.html",
            "/shop/drinks/?category=%F0%9F%8D%8B": "/shop/drinks/category/_d83c__df4b_/index.html",
        }
        answers, asked = run_recorded([viewer_request(path) for path in cases], store)
        self.assertEqual(dict(zip(cases, (r["uri"] for r in answers))), cases)
        self.assertEqual(asked[:2], ["drinks/p mango/index.html", "drinks/p+mango/index.html"])

    def test_pages_without_a_prerendered_rule_and_unknown_paths_never_read_the_store(self):
        paths = ["/", "/checkout", "/account/order", "/myorder/0f9a7c2e", "/shop/drinks/?sort=price-asc",
                 "/drinks/%2e%2e", "/no/such/page", "/shop", "/assets/index-1a2b.js"]
        answers, asked = run_recorded([viewer_request(path) for path in paths], "throws")
        self.assertEqual(asked, [])
        self.assertEqual(
            [r["uri"] for r in answers],
            ["/index.html"] * 5 + ["/app-404.html", "/404.html", "/404.html", "/assets/index-1a2b.js"],
        )

    def test_a_store_that_fails_or_answers_oddly_gives_the_app_never_an_error(self):
        paths = ["/drinks/p-mango", "/shop/drinks/?category=Soft+drinks", "/contact/drinks-contact", "/nope/a/b/c"]
        for store in ("throws", "rejects", "odd"):
            with self.subTest(store=store):
                answers = run([viewer_request(path) for path in paths], store)
                self.assertEqual([r["uri"] for r in answers], ["/index.html"] * 3 + ["/404.html"])

    def test_the_function_reads_the_stacks_pages_store(self):
        resources = TEMPLATE["Resources"]
        config = FUNCTION["Properties"]["FunctionConfig"]
        self.assertEqual(
            config["KeyValueStoreAssociations"], [{"KeyValueStoreARN": {"Fn::GetAtt": ["PagesStore", "Arn"]}}]
        )
        self.assertEqual(resources["PagesStore"]["Type"], "AWS::CloudFront::KeyValueStore")
        self.assertEqual(resources["PagesStore"]["Properties"]["Name"], {"Fn::Sub": "${AWS::StackName}-pages"})
        # make publish finds the store by this output (scripts/deploy.py).
        self.assertEqual(TEMPLATE["Outputs"]["PagesStoreArn"]["Value"], {"Fn::GetAtt": ["PagesStore", "Arn"]})

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
            # Prerendered copies, and the app a page without one gets, stay 200.
            viewer_response("/drinks/p-mango/index.html"),
            viewer_response("/shop/drinks/category/Soft_20_drinks/index.html"),
            viewer_response("/drinks/p-mango?qty=3"),
            # The app for a drink make publish did not list goes out with 404, by either uri.
            viewer_response("/app-404.html"),
            viewer_response("/drinks/p-gone"),
        ]
        store = ["drinks/p-1/index.html", "drinks/p-mango/index.html"]
        self.assertEqual(
            [r["statusCode"] for r in run(events, store)], [404, 404, 404, 200, 200, 200, 200, 304, 200, 200, 200, 404, 404]
        )

    def test_a_drink_page_without_a_listed_copy_is_the_app_with_status_404_unless_the_store_fails(self):
        store = ["drinks/p-mango/index.html", "shop/drinks/index.html"]
        cases = {
            "/drinks/p-mango": "/drinks/p-mango/index.html",
            "/drinks/no-such-drink": "/app-404.html",
            "/anything/no-such-drink?qty=2": "/app-404.html",
            # The shop's list is no drink: without a copy it is the app, with 200.
            "/shop/drinks/?sort=price-asc": "/index.html",
            "/shop/juices": "/index.html",
        }
        answers = run([viewer_request(path) for path in cases], store)
        self.assertEqual(dict(zip(cases, (r["uri"] for r in answers))), cases)
        responses = run([viewer_response(path) for path in ["/drinks/no-such-drink", "/shop/juices", "/drinks/p-mango"]], store)
        self.assertEqual([r["statusCode"] for r in responses], [404, 200, 200])
        # A store that cannot answer never turns a drink into a 404.
        for failing in ("throws", "rejects", "odd"):
            with self.subTest(store=failing):
                self.assertEqual(run([viewer_request("/drinks/p-mango")], failing)[0]["uri"], "/index.html")
                self.assertEqual(run([viewer_response("/drinks/p-mango")], failing)[0]["statusCode"], 200)

    def test_no_error_response_turns_the_apis_403_into_the_app(self):
        # CustomErrorResponses apply to every behaviour: a 403 rule would send the API's JSON 403s (an
        # admin-only route, an expired order key) to the browser as index.html with 200. The store replaces it.
        config = TEMPLATE["Resources"]["Distribution"]["Properties"]["DistributionConfig"]
        self.assertNotIn("CustomErrorResponses", config)

if __name__ == "__main__":
    unittest.main()
