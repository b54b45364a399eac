"""`sam build` as make deploy runs it, with cargo-lambda replaced by a stand-in that only writes the binary
it was asked for: in seconds it shows SAM runs each function's build in that function's own crate (its
CodeUri) and packages that function's own binary, which a real, ten-minute arm64 build would show too.
Skipped when the SAM CLI is not installed (make test installs it)."""

import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from scripts import check_template

ROOT = check_template.ROOT
SAM = ROOT / ".tools/sam/bin/sam"

STAND_IN = """#!/usr/bin/env bash
echo "$PWD $*" >> "$CALLS"
bin=""; while [ $# -gt 0 ]; do [ "$1" = "--bin" ] && bin=$2; shift; done
mkdir -p "$CARGO_TARGET_DIR/lambda/$bin" && echo "built $bin" > "$CARGO_TARGET_DIR/lambda/$bin/bootstrap"
"""


@unittest.skipUnless(SAM.exists(), "the SAM CLI is installed by make sam-cli")
class SamBuild(unittest.TestCase):
    def test_each_function_is_built_in_its_own_crate_and_packages_its_own_binary(self):
        template = check_template.load(ROOT / "template.yaml")
        functions = {
            name: (resource["Properties"]["CodeUri"], resource["Metadata"]["BuildProperties"]["Binary"])
            for name, resource in template["Resources"].items()
            if resource["Type"] == "AWS::Serverless::Function"
        }
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            stand_in = tmp / "bin" / "cargo-lambda"
            stand_in.parent.mkdir()
            stand_in.write_text(STAND_IN)
            stand_in.chmod(0o755)
            env = dict(
                os.environ,
                PATH=f"{stand_in.parent}:{SAM.parent}:{os.environ['PATH']}",
                CARGO_TARGET_DIR=str(tmp / "target"),
                CALLS=str(tmp / "calls"),
                SAM_CLI_TELEMETRY="0",
            )
            run = subprocess.run(
                [str(SAM), "build", "--build-dir", str(tmp / "build")],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
            )
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

            calls = sorted((tmp / "calls").read_text().splitlines())
            expected = sorted(
                f"{ROOT / code_uri} lambda build --release --arm64 --bin {binary}"
                for code_uri, binary in functions.values()
            )
            self.assertEqual(calls, expected)
            for name, (_, binary) in functions.items():
                self.assertEqual((tmp / "build" / name / "bootstrap").read_text(), f"built {binary}\n", name)


if __name__ == "__main__":
    unittest.main()
