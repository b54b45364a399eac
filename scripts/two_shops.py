"""Two local shops on one checkout, as the README allows (another PORT and LOCAL_STATE), never in each other's
way (make test-shops, part of make test):

- both start at the same moment, both answer, and each prerenders its drink, category and content pages into
  its own folder: frontend/dist, the build both serve, is not written to;
- while they serve, the storefront is built again (FORCE=1) with a plain build racing it: every request to
  either shop meanwhile is answered with a whole page, the plain build finds nothing changed, and dist ends
  as a new link to a complete build;
- a build with nothing changed is a no-op, in well under a second or two.

Needs the built storefront (make frontend) and the gateway (make build); stdlib only."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FRONTEND = ROOT / "frontend"
DIST = FRONTEND / "dist"
GATEWAY = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug" / "local"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, timeout: float = 10) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below `folder` (through the dist link), with its content's hash."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def build(force: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ, FORCE="1" if force else "")
    return subprocess.run(
        ["bash", "scripts/build.sh"], cwd=FRONTEND, env=env, capture_output=True, text=True, timeout=600
    )


class Shop:
    def __init__(self, name: str, state: str, workdir: Path):
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"{name}.log"
        env = dict(
            os.environ,
            PORT=str(self.port),
            LOCAL_STATE=state,
            LOCAL_PREFIX=f"{name}{self.port}",
            RUST_LOG=os.environ.get("RUST_LOG", "info"),
        )
        env.pop("LOCAL_PAGES", None)
        env.pop("LOCAL_PRERENDER", None)
        env.pop("AWS_ENDPOINT_URL", None)
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [str(GATEWAY)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_until_answering(self, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"shop {self.name} stopped:\n{self.logged()}")
            try:
                if get(f"{self.url}/api/product/", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"shop {self.name} did not answer in {seconds} s:\n{self.logged()}")

    def wait_for_pages(self, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if "Prerendered " in self.logged() and " pages " in self.logged():
                return
            if self.process.poll() is not None:
                raise AssertionError(f"shop {self.name} stopped:\n{self.logged()}")
            time.sleep(0.5)
        raise AssertionError(f"shop {self.name} prerendered no pages in {seconds} s:\n{self.logged()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class TwoShops(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not (DIST / "index.html").is_file() or not GATEWAY.is_file():
            raise unittest.SkipTest("needs the built storefront and gateway (make frontend build)")
        cls.workdir = Path(tempfile.mkdtemp(prefix="two-shops-"))
        cls.kept_state = cls.workdir / "state"
        cls.dist_before = snapshot(DIST)
        cls.link_before = os.readlink(DIST)
        # Started together: one keeps its state in a folder, the other in memory.
        cls.shops = [Shop("kept", str(cls.kept_state), cls.workdir), Shop("memory", "memory", cls.workdir)]
        try:
            for shop in cls.shops:
                shop.wait_until_answering()
            for shop in cls.shops:
                shop.wait_for_pages()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        for shop in cls.shops:
            shop.stop()
        subprocess.run(["rm", "-rf", str(cls.workdir)], check=False)

    def a_drink_page(self, shop: Shop) -> str:
        status, body = get(f"{shop.url}/api/product/")
        self.assertEqual(status, 200)
        return f"/drinks/{json.loads(body)[0]['_id']}"

    def test_1_each_shop_prerenders_into_its_own_folder_and_the_build_is_untouched(self):
        self.assertEqual(snapshot(DIST), self.dist_before, "a shop wrote into frontend/dist")
        kept_pages = self.kept_state / "pages"
        listed = json.loads((kept_pages / "prerendered.json").read_text())
        self.assertTrue(any(name.startswith("drinks/") for name in listed), listed)
        self.assertEqual((kept_pages / ".build-id").read_text().strip(), (DIST / ".build-id").read_text().strip())
        for shop in self.shops:
            status, body = get(shop.url + self.a_drink_page(shop))
            self.assertEqual(status, 200, shop.name)
            self.assertIn(b"data-prerendered", body, f"{shop.name} serves its prerendered drink page")
            self.assertEqual(get(f"{shop.url}/.build-id")[0], 404)
        self.assertNotIn("no empty #root", "".join(shop.logged() for shop in self.shops))

    def test_2_a_build_while_both_serve_never_leaves_them_without_a_page(self):
        failures: list[str] = []
        stop = threading.Event()
        pages = {shop.name: self.a_drink_page(shop) for shop in self.shops}

        def keep_asking(shop: Shop) -> int:
            asked = 0
            while not stop.is_set():
                for path in ("/", pages[shop.name], "/about/drinks-about-us", "/no-such-page"):
                    try:
                        status, body = get(shop.url + path)
                    except OSError as err:
                        status, body = 0, repr(err).encode()
                    asked += 1
                    whole = b'<div id="root"' in body and b"</html>" in body
                    if status != (404 if path == "/no-such-page" else 200) or not whole:
                        failures.append(f"{shop.name} {path}: {status} {body[:120]!r}")
            return asked

        threads = [threading.Thread(target=keep_asking, args=(shop,)) for shop in self.shops]
        for thread in threads:
            thread.start()
        try:
            results: dict[str, subprocess.CompletedProcess] = {}
            forced = threading.Thread(target=lambda: results.__setitem__("forced", build(force=True)))
            forced.start()
            time.sleep(1)
            results["plain"] = build()
            forced.join()
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        self.assertEqual(results["forced"].returncode, 0, results["forced"].stdout + results["forced"].stderr)
        self.assertEqual(results["plain"].returncode, 0, results["plain"].stdout + results["plain"].stderr)
        self.assertIn("nothing to build", results["plain"].stdout)
        self.assertEqual(failures, [], "requests answered with less than a whole page during the build")
        self.assertNotEqual(os.readlink(DIST), self.link_before, "dist links the new build")
        self.assertTrue((DIST / "index.html").is_file() and (DIST / ".prerender" / "prerender.js").is_file())
        # The same sources make the same build: the shops' pages still fit it and are served.
        for shop in self.shops:
            self.assertIn(b"data-prerendered", get(shop.url + pages[shop.name])[1], shop.name)

    def test_3_a_build_with_nothing_changed_is_a_no_op(self):
        link = os.readlink(DIST)
        started = time.monotonic()
        again = build()
        took = time.monotonic() - started
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertIn("nothing to build", again.stdout)
        self.assertEqual(os.readlink(DIST), link)
        self.assertLess(took, 5, "an unchanged build takes no time")


if __name__ == "__main__":
    unittest.main(verbosity=2)
