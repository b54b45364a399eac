"""make publish against the emulator's S3 and CloudFront (moto): cache headers per object, the previous
release kept (tagged stale for the lifecycle rule) while the new one is live, index.html uploaded last and
invalidated, and a re-run that changes nothing; the drink, category and content pages prerendered from the live
shop just before, uploaded as pages (no-cache, HTML) and invalidated, then listed in CloudFront's key value store
(a recording fake: moto has no such service) so the site routes function asks S3 only for pages it has."""

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request
import uuid
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import deploy  # noqa: E402

ROOT = deploy.ROOT
REGION = "eu-west-2"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_emulator():
    port = free_port()
    process = subprocess.Popen(
        [str(ROOT / ".venv/bin/python"), str(ROOT / "scripts/moto_serial.py"), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=1)
            return process, endpoint
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("moto did not start")


def write_release(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


RELEASE_1 = {
    "index.html": '<!doctype html><script type="module" src="/assets/index-AAAAaaaa.js"></script>',
    "assets/index-AAAAaaaa.js": "console.log('release 1')",
    "assets/index-CSS_1234.css": "body{color:red}",
    "assets/admin-ADM_1234.js": "console.log('admin')",
    "favicon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
}
# Release 2 changes the entry script and index.html, keeps the stylesheet, the admin chunk and the icon.
RELEASE_2 = dict(RELEASE_1)
del RELEASE_2["assets/index-AAAAaaaa.js"]
RELEASE_2["assets/index-BBBBbbbb.js"] = "console.log('release 2')"
RELEASE_2["index.html"] = '<!doctype html><script type="module" src="/assets/index-BBBBbbbb.js"></script>'


# The pages frontend/scripts/prerender-pages.mjs writes (knownPaths.json, "about"), beside the build's own.
RELEASE_PAGES = dict(
    RELEASE_1,
    **{
        "drinks/p-mango/index.html": "<!doctype html><title>Mango</title>",
        "shop/drinks/index.html": "<!doctype html><title>All drinks</title>",
        "shop/drinks/category/Soft_20_drinks/index.html": "<!doctype html><title>Soft drinks</title>",
        "about/drinks-about-us/index.html": "<!doctype html><title>About us</title>",
    },
)

# A stand-in for the front end's script: one page, from the address it is given; fails for a "down" shop.
STAND_IN = """
const args = process.argv.slice(2);
const api = args[args.indexOf('--api') + 1];
const dist = args[args.indexOf('--dist') + 1];
const out = args[args.indexOf('--out') + 1];
const fs = require('fs');
if (api.includes('down')) { console.log('fetching ' + api); console.error('the shop did not answer'); process.exit(4); }
fs.mkdirSync(out + '/drinks/p-live', { recursive: true });
fs.writeFileSync(out + '/drinks/p-live/index.html', 'from ' + api + ' with ' + fs.readFileSync(dist + '/.build-id', 'utf8'));
console.log('rendering');
console.log('Prerendered 1 pages from ' + api);
"""


class Prerender(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        root = Path(self.tmp.name)
        # A build holding what it keeps for itself, and pages of an earlier run (a local shop's, from before
        # the shops kept their pages apart).
        self.built = dict(RELEASE_PAGES, **{".build-id": "b-1\n", ".vite/manifest.json": "{}", ".prerender/prerender.js": ""})
        self.dist = write_release(root / "dist", dict(self.built))
        self.out = deploy.staged_copy(self.dist, root / "out")
        self.script = root / "prerender-pages.cjs"
        self.script.write_text(STAND_IN)

    def pages(self) -> list[str]:
        return [p.relative_to(self.out).as_posix() for p in deploy.prerendered_pages(self.out)]

    def test_the_copy_that_goes_out_holds_the_build_without_its_own_files_or_old_pages(self):
        self.assertEqual(
            sorted(p.relative_to(self.out).as_posix() for p in self.out.rglob("*") if p.is_file()),
            sorted(RELEASE_1),
        )

    @unittest.skipUnless(shutil.which("node"), "the script runs in Node")
    def test_the_live_shops_pages_go_into_the_copy_and_the_build_stays_as_built(self):
        said = deploy.prerender(self.dist, self.out, "https://shop.test/", self.script)

        self.assertEqual(said, "Prerendered 1 pages from https://shop.test")
        self.assertEqual(self.pages(), ["drinks/p-live/index.html"])
        self.assertEqual((self.out / "drinks/p-live/index.html").read_text(), "from https://shop.test with b-1\n")
        self.assertEqual((self.out / "index.html").read_text(), RELEASE_PAGES["index.html"])
        built = {p.relative_to(self.dist).as_posix(): p.read_text() for p in self.dist.rglob("*") if p.is_file()}
        self.assertEqual(built, self.built)

    @unittest.skipUnless(shutil.which("node"), "the script runs in Node")
    def test_a_failing_script_stops_the_publish_with_its_output(self):
        with self.assertRaises(deploy.Stop) as stopped:
            deploy.prerender(self.dist, self.out, "https://down.test", self.script)
        self.assertIn("failed (exit 4)", str(stopped.exception))
        self.assertIn("the shop did not answer", str(stopped.exception))
        self.assertIn("fetching https://down.test", str(stopped.exception))

    def test_without_an_address_or_a_script_the_build_goes_out_without_pages(self):
        write_release(self.out, {"drinks/p-old/index.html": "old"})
        said = deploy.prerender(self.dist, self.out, None, self.script)
        self.assertIn("no shop address known", said)
        self.assertEqual(self.pages(), [])
        self.assertTrue((self.out / "index.html").is_file())

        write_release(self.out, {"drinks/p-old/index.html": "old"})
        said = deploy.prerender(self.dist, self.out, "https://shop.test", self.script.with_name("missing.mjs"))
        self.assertIn("missing.mjs not found", said)
        self.assertEqual(self.pages(), [])


class FakePagesStore:
    """CloudFront's key value store client (cloudfront-keyvaluestore), as publish uses it. A fake because moto
    does not emulate that service; it keeps the keys, refuses an update without the current ETag or over the
    per-call limit, pages list_keys by MaxResults, and records every call."""

    def __init__(self, arn: str, keys: dict[str, str] | None = None):
        self.arn = arn
        self.keys = dict(keys or {})
        self.version = 0
        self.calls: list[tuple[str, dict]] = []

    def etag(self) -> str:
        return f"KV{self.version:04d}"

    def describe_key_value_store(self, **kw) -> dict:
        self.calls.append(("describe_key_value_store", kw))
        assert kw == {"KvsARN": self.arn}, kw
        return {"KvsARN": self.arn, "ItemCount": len(self.keys), "ETag": self.etag()}

    def list_keys(self, **kw) -> dict:
        self.calls.append(("list_keys", kw))
        assert kw["KvsARN"] == self.arn
        size = kw.get("MaxResults", 10)
        assert 1 <= size <= deploy.MAX_STORE_CHANGES, size
        names = sorted(self.keys)
        start = int(kw.get("NextToken", "0"))
        page = names[start : start + size]
        answer = {"Items": [{"Key": k, "Value": self.keys[k]} for k in page]}
        if start + size < len(names):
            answer["NextToken"] = str(start + size)
        return answer

    def update_keys(self, **kw) -> dict:
        self.calls.append(("update_keys", kw))
        assert kw["KvsARN"] == self.arn
        if kw["IfMatch"] != self.etag():
            raise AssertionError(f"stale ETag {kw['IfMatch']}, the store is at {self.etag()}")
        puts, deletes = kw.get("Puts", []), kw.get("Deletes", [])
        assert puts or deletes, "an update with nothing in it"
        assert len(puts) + len(deletes) <= deploy.MAX_STORE_CHANGES, len(puts) + len(deletes)
        for item in puts:
            assert 0 < len(item["Key"].encode()) <= deploy.MAX_STORE_KEY_BYTES, item
            self.keys[item["Key"]] = item["Value"]
        for item in deletes:
            self.keys.pop(item["Key"], None)
        self.version += 1
        return {"ItemCount": len(self.keys), "ETag": self.etag()}

    def updates(self) -> list[dict]:
        return [kw for name, kw in self.calls if name == "update_keys"]


def with_listing(files: dict[str, str]) -> dict[str, str]:
    """A build whose dist/prerendered.json lists its pages, as prerender-pages.mjs leaves it."""
    pages = sorted(k for k in files if k.endswith("/index.html"))
    return dict(files, **{"prerendered.json": json.dumps(pages, indent=2) + "\n"})


class Publish(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.process, cls.endpoint = start_emulator()
        cls.env = {
            "AWS_ENDPOINT_URL": cls.endpoint,
            "AWS_REGION": REGION,
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "AWS_EC2_METADATA_DISABLED": "true",
        }
        cls.saved = {k: os.environ.get(k) for k in cls.env}
        os.environ.update(cls.env)
        sess = deploy.session(REGION)
        cls.s3 = deploy.client(sess, "s3")
        cls.cloudfront = deploy.client(sess, "cloudfront")
        cls.tmp = tempfile.TemporaryDirectory()
        tmp = Path(cls.tmp.name)
        cls.release_1 = write_release(tmp / "r1", RELEASE_1)
        cls.release_2 = write_release(tmp / "r2", RELEASE_2)

    @classmethod
    def tearDownClass(cls):
        cls.process.kill()
        cls.process.wait()
        cls.tmp.cleanup()
        for k, v in cls.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def setUp(self):
        self.bucket = f"web-{uuid.uuid4().hex[:12]}"
        self.s3.create_bucket(Bucket=self.bucket, CreateBucketConfiguration={"LocationConstraint": REGION})
        self.distribution = self.cloudfront.create_distribution(
            DistributionConfig={
                "CallerReference": uuid.uuid4().hex,
                "Comment": "publish test",
                "Enabled": True,
                "Origins": {
                    "Quantity": 1,
                    "Items": [
                        {
                            "Id": "web",
                            "DomainName": f"{self.bucket}.s3.{REGION}.amazonaws.com",
                            "S3OriginConfig": {"OriginAccessIdentity": ""},
                        }
                    ],
                },
                "DefaultCacheBehavior": {
                    "TargetOriginId": "web",
                    "ViewerProtocolPolicy": "redirect-to-https",
                    "TrustedSigners": {"Enabled": False, "Quantity": 0},
                    "ForwardedValues": {"QueryString": False, "Cookies": {"Forward": "none"}},
                    "MinTTL": 0,
                },
            }
        )["Distribution"]["Id"]

    def publish(self, release: Path, store: FakePagesStore | None = None) -> deploy.Published:
        return deploy.publish(
            self.s3, self.cloudfront, release, self.bucket, self.distribution, kvs=store, store=store and store.arn
        )

    def head(self, key: str) -> dict:
        return self.s3.head_object(Bucket=self.bucket, Key=key)

    def body(self, key: str) -> str:
        return self.s3.get_object(Bucket=self.bucket, Key=key)["Body"].read().decode()

    def tags(self, key: str) -> list:
        return self.s3.get_object_tagging(Bucket=self.bucket, Key=key)["TagSet"]

    def invalidated_paths(self) -> list[list[str]]:
        listed = self.cloudfront.list_invalidations(DistributionId=self.distribution)["InvalidationList"]
        paths = []
        for item in listed.get("Items", []):
            found = self.cloudfront.get_invalidation(DistributionId=self.distribution, Id=item["Id"])
            paths.append(sorted(found["Invalidation"]["InvalidationBatch"]["Paths"]["Items"]))
        return paths

    def test_first_release_sets_each_objects_cache_headers_and_uploads_index_last(self):
        done = self.publish(self.release_1)

        self.assertEqual(done.uploaded[-1], "index.html")
        hashed = [k for k in done.uploaded if k.startswith("assets/")]
        self.assertEqual(done.uploaded[: len(hashed)], hashed, "hashed assets go first")
        for key in RELEASE_1:
            head = self.head(key)
            expected = deploy.IMMUTABLE if key.startswith("assets/") else deploy.NO_CACHE
            self.assertEqual(head["CacheControl"], expected, key)
            self.assertEqual(self.body(key), RELEASE_1[key])
        self.assertEqual(self.head("index.html")["ContentType"], "text/html; charset=utf-8")
        self.assertEqual(self.head("assets/index-AAAAaaaa.js")["ContentType"], "application/javascript; charset=utf-8")
        self.assertEqual(self.head("assets/index-CSS_1234.css")["ContentType"], "text/css; charset=utf-8")
        self.assertEqual(self.invalidated_paths(), [["/favicon.svg", "/index.html"]])

    def test_second_release_keeps_the_first_releases_assets_for_visitors_holding_the_old_page(self):
        self.publish(self.release_1)
        done = self.publish(self.release_2)

        self.assertEqual(sorted(done.uploaded), ["assets/index-BBBBbbbb.js", "index.html"])
        self.assertEqual(done.staled, ["assets/index-AAAAaaaa.js"])
        # The old script is still there, byte for byte and still immutable, tagged for the lifecycle rule.
        self.assertEqual(self.body("assets/index-AAAAaaaa.js"), RELEASE_1["assets/index-AAAAaaaa.js"])
        old = self.head("assets/index-AAAAaaaa.js")
        self.assertEqual(old["CacheControl"], deploy.IMMUTABLE)
        self.assertIn("stale-since", old["Metadata"])
        self.assertEqual(self.tags("assets/index-AAAAaaaa.js"), [{"Key": "release", "Value": "stale"}])
        # The live release: its page, its script, the kept stylesheet, none of them stale.
        self.assertEqual(self.body("index.html"), RELEASE_2["index.html"])
        self.assertEqual(self.head("index.html")["CacheControl"], deploy.NO_CACHE)
        self.assertEqual(self.head("assets/index-BBBBbbbb.js")["CacheControl"], deploy.IMMUTABLE)
        for key in RELEASE_2:
            self.assertEqual(self.tags(key), [], key)
        # The second release invalidates only the page that changed.
        self.assertEqual(sorted(self.invalidated_paths()), [["/favicon.svg", "/index.html"], ["/index.html"]])

    def test_publishing_the_same_release_again_changes_nothing(self):
        self.publish(self.release_2)
        before = {k: self.head(k)["LastModified"] for k in RELEASE_2}

        done = self.publish(self.release_2)

        self.assertEqual(done.uploaded, [])
        self.assertEqual(sorted(done.unchanged), sorted(RELEASE_2))
        self.assertIsNone(done.invalidation)
        self.assertEqual(len(self.invalidated_paths()), 1)
        self.assertEqual({k: self.head(k)["LastModified"] for k in RELEASE_2}, before)

    def test_rolling_back_takes_a_stale_asset_live_again(self):
        self.publish(self.release_1)
        self.publish(self.release_2)

        done = self.publish(self.release_1)

        self.assertIn("assets/index-AAAAaaaa.js", done.uploaded)
        self.assertEqual(self.tags("assets/index-AAAAaaaa.js"), [])
        self.assertEqual(self.tags("assets/index-BBBBbbbb.js"), [{"Key": "release", "Value": "stale"}])
        self.assertEqual(self.body("index.html"), RELEASE_1["index.html"])

    def test_prerendered_pages_go_out_as_pages_never_cached_unrevalidated_and_are_invalidated(self):
        release = write_release(Path(self.tmp.name) / "pages", RELEASE_PAGES)
        done = self.publish(release)

        self.assertEqual(done.uploaded[-1], "index.html")
        pages = [k for k in RELEASE_PAGES if k.endswith("/index.html")]
        for key in pages:
            head = self.head(key)
            self.assertEqual(head["CacheControl"], deploy.NO_CACHE, key)
            self.assertEqual(head["ContentType"], "text/html; charset=utf-8", key)
            self.assertEqual(self.body(key), RELEASE_PAGES[key])
        [paths] = self.invalidated_paths()
        self.assertEqual(set(paths), {"/favicon.svg", "/index.html"} | {"/" + k for k in pages})

        # A drink gone from the live shop: its page is kept a week for visitors holding links, tagged stale.
        fewer = dict(RELEASE_PAGES)
        del fewer["drinks/p-mango/index.html"]
        fewer["shop/drinks/index.html"] = "<!doctype html><title>All drinks, fewer</title>"
        done = self.publish(write_release(Path(self.tmp.name) / "fewer", fewer))
        self.assertEqual(done.uploaded, ["shop/drinks/index.html"])
        self.assertEqual(done.staled, ["drinks/p-mango/index.html"])
        self.assertIn(["/index.html", "/shop/drinks/index.html"], self.invalidated_paths())

    def test_the_pages_store_lists_the_uploaded_pages_new_ones_put_gone_ones_deleted(self):
        store = FakePagesStore("arn:aws:cloudfront::123456789012:key-value-store/pages-1")
        pages = sorted(k for k in RELEASE_PAGES if k.endswith("/index.html"))
        first = write_release(Path(self.tmp.name) / "store-1", with_listing(RELEASE_PAGES))

        done = self.publish(first, store)

        self.assertEqual(store.keys, {page: "1" for page in pages})
        self.assertEqual(done.store.put, pages)
        self.assertEqual(done.store.deleted, [])
        # Listed only once their files are in the bucket: a key never names a missing object.
        [update] = store.updates()
        self.assertEqual(update["IfMatch"], "KV0000", "the ETag describe_key_value_store gave")
        for page in pages:
            self.assertEqual(self.body(page), RELEASE_PAGES[page])

        # The next publish: p-mango gone from the shop, p-new added; the others unchanged.
        second = dict(RELEASE_PAGES)
        del second["drinks/p-mango/index.html"]
        second["drinks/p-new/index.html"] = "<!doctype html><title>New</title>"
        done = self.publish(write_release(Path(self.tmp.name) / "store-2", with_listing(second)), store)

        self.assertEqual(done.store.put, ["drinks/p-new/index.html"])
        self.assertEqual(done.store.deleted, ["drinks/p-mango/index.html"])
        self.assertEqual(sorted(store.keys), sorted(k for k in second if k.endswith("/index.html")))
        self.assertEqual(
            store.updates()[-1],
            {
                "KvsARN": store.arn,
                "IfMatch": "KV0001",
                "Puts": [{"Key": "drinks/p-new/index.html", "Value": "1"}],
                "Deletes": [{"Key": "drinks/p-mango/index.html"}],
            },
        )
        # The gone page's file is kept a week (stale) for links already out; the store no longer sends anyone.
        self.assertEqual(done.staled, ["drinks/p-mango/index.html"])

    def test_an_unchanged_set_of_pages_changes_nothing_in_the_store(self):
        store = FakePagesStore("arn:aws:cloudfront::123456789012:key-value-store/pages-2")
        release = write_release(Path(self.tmp.name) / "same", with_listing(RELEASE_PAGES))
        self.publish(release, store)
        calls = len(store.calls)

        done = self.publish(release, store)

        self.assertEqual((done.store.put, done.store.deleted), ([], []))
        self.assertEqual([name for name, _ in store.calls[calls:]], ["list_keys"], "no describe, no update")
        self.assertEqual(len(store.updates()), 1)

    def test_pages_over_the_per_call_limit_go_in_batches_each_with_the_etag_before(self):
        limit = deploy.MAX_STORE_CHANGES
        # The store lists pages of an earlier build (and a key with another value, set by hand).
        old = {f"drinks/p-old-{n:03d}/index.html": "1" for n in range(limit + 5)}
        store = FakePagesStore("arn:aws:cloudfront::123456789012:key-value-store/pages-3", dict(old, **{"drinks/p-0/index.html": "x"}))
        many = dict(RELEASE_1, **{f"drinks/p-{n}/index.html": f"drink {n}" for n in range(2 * limit + 3)})

        done = self.publish(write_release(Path(self.tmp.name) / "batches", with_listing(many)), store)

        wanted = {k for k in many if k.endswith("/index.html")}
        self.assertEqual(set(store.keys), wanted)
        self.assertEqual(set(store.keys.values()), {"1"})
        self.assertEqual(len(done.store.put), len(wanted))
        self.assertEqual(len(done.store.deleted), len(old))
        updates = store.updates()
        total = len(wanted) + len(old)
        self.assertEqual(len(updates), -(-total // limit))
        self.assertTrue(all(len(u.get("Puts", [])) + len(u.get("Deletes", [])) <= limit for u in updates))
        self.assertEqual([u["IfMatch"] for u in updates], [f"KV{n:04d}" for n in range(len(updates))])
        # Listing pages through the store's keys too (more than one page of list_keys).
        self.assertGreater(len([1 for name, _ in store.calls if name == "list_keys"]), 1)

    def test_a_build_without_its_pages_empties_the_store_and_a_long_key_is_left_out(self):
        store = FakePagesStore("arn:aws:cloudfront::123456789012:key-value-store/pages-4")
        self.publish(write_release(Path(self.tmp.name) / "full", with_listing(RELEASE_PAGES)), store)

        # --no-prerender deletes the pages but leaves prerendered.json: the list counts only files still there.
        bare = write_release(Path(self.tmp.name) / "bare", with_listing(RELEASE_PAGES))
        for page in deploy.prerendered_pages(bare):
            page.unlink()
        done = self.publish(bare, store)
        self.assertEqual(store.keys, {})
        self.assertEqual(len(done.store.deleted), 4)

        # Over 512 bytes in all (each segment within the file system's 255).
        long_page = "/".join(["drinks", "p" * 200, "q" * 200, "r" * 200, "index.html"])
        done = self.publish(write_release(Path(self.tmp.name) / "long", with_listing(dict(RELEASE_1, **{long_page: "long"}))), store)
        self.assertEqual(done.store.too_long, [long_page])
        self.assertEqual(store.keys, {})

    def test_without_a_store_publish_leaves_it_alone(self):
        done = self.publish(write_release(Path(self.tmp.name) / "nostore", with_listing(RELEASE_PAGES)))
        self.assertIsNone(done.store)

    def test_many_changed_pages_are_invalidated_with_one_wildcard(self):
        many = dict(RELEASE_1, **{f"drinks/p-{n}/index.html": f"drink {n}" for n in range(deploy.MAX_INVALIDATION_PATHS)})
        self.publish(write_release(Path(self.tmp.name) / "many", many))
        self.assertEqual(self.invalidated_paths(), [["/*"]])

    def test_a_build_without_index_html_publishes_nothing(self):
        empty = Path(self.tmp.name) / "empty"
        write_release(empty, {"assets/x-12345678.js": "x"})
        with self.assertRaises(deploy.Stop):
            self.publish(empty)
        self.assertNotIn("Contents", self.s3.list_objects_v2(Bucket=self.bucket))

    def test_make_destroy_empties_a_bucket_of_every_version_so_the_stack_can_delete_it(self):
        self.publish(self.release_1)
        self.publish(self.release_2)
        versioned = f"images-{uuid.uuid4().hex[:12]}"
        self.s3.create_bucket(Bucket=versioned, CreateBucketConfiguration={"LocationConstraint": REGION})
        self.s3.put_bucket_versioning(Bucket=versioned, VersioningConfiguration={"Status": "Enabled"})
        for body in (b"one", b"two"):
            self.s3.put_object(Bucket=versioned, Key="uploads/a.png", Body=body)
        self.s3.delete_object(Bucket=versioned, Key="uploads/a.png")  # leaves a delete marker

        self.assertEqual(deploy.empty_bucket(self.s3, self.bucket), 6)
        self.assertEqual(deploy.empty_bucket(self.s3, versioned), 3)

        for bucket in (self.bucket, versioned):
            listed = self.s3.list_object_versions(Bucket=bucket)
            self.assertEqual(listed.get("Versions", []) + listed.get("DeleteMarkers", []), [], bucket)
            self.s3.delete_bucket(Bucket=bucket)  # S3 refuses this while anything is left

    def test_the_command_honours_aws_endpoint_url_site_bucket_and_distribution_id(self):
        env = dict(os.environ, SITE_BUCKET=self.bucket, DISTRIBUTION_ID=self.distribution)
        env.pop("SITE_URL", None)  # no shop address: the build goes out without prerendered pages
        run = subprocess.run(
            [sys.executable, str(ROOT / "scripts/deploy.py"), "publish", "--dist", str(self.release_1)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("publishing without prerendered pages", run.stdout)
        self.assertIn("5 uploaded, 0 unchanged", run.stdout)
        self.assertIn("CloudFront invalidation", run.stdout)
        self.assertIn("no pages store given", run.stdout)
        self.assertEqual(self.body("index.html"), RELEASE_1["index.html"])


@unittest.skipUnless(importlib.util.find_spec("awscrt"), "the real client resolves its SigV4A endpoint with awscrt (make venv-test)")
class PagesStoreClient(unittest.TestCase):
    """The calls publish makes, checked by botocore's Stubber against the service's own model (parameters, limits
    such as MaxResults, and the canned answers), on the real cloudfront-keyvaluestore client."""

    def test_the_calls_are_ones_the_real_client_accepts(self):
        import boto3
        from botocore.stub import Stubber

        arn = "arn:aws:cloudfront::123456789012:key-value-store/0b1c2d3e-aaaa-bbbb-cccc-123456789012"
        kvs = boto3.session.Session(region_name=REGION).client("cloudfront-keyvaluestore")
        with Stubber(kvs) as stub:
            stub.add_response("list_keys", {"Items": [{"Key": "drinks/p-gone/index.html", "Value": "1"}]}, {"KvsARN": arn, "MaxResults": 50})
            described = {"ETag": "KVa", "KvsARN": arn, "Created": datetime(2026, 1, 1), "ItemCount": 1, "TotalSizeInBytes": 30}
            stub.add_response("describe_key_value_store", described, {"KvsARN": arn})
            changes = {
                "KvsARN": arn,
                "IfMatch": "KVa",
                "Puts": [{"Key": "drinks/p-mango/index.html", "Value": "1"}],
                "Deletes": [{"Key": "drinks/p-gone/index.html"}],
            }
            stub.add_response("update_keys", {"ETag": "KVb", "ItemCount": 1, "TotalSizeInBytes": 30}, changes)
            done = deploy.sync_pages_store(kvs, arn, {"drinks/p-mango/index.html"})
            stub.assert_no_pending_responses()
        self.assertEqual((done.put, done.deleted), (["drinks/p-mango/index.html"], ["drinks/p-gone/index.html"]))


if __name__ == "__main__":
    unittest.main()
