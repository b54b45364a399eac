"""The shop's deploy steps that the SAM CLI does not do: check before changing anything, publish the
storefront without breaking the live site, report what the operator still has to do, and tear down.

Run by the Makefile with the SAM CLI's own venv (.tools/sam), which brings boto3: a fresh machine has no
AWS CLI, and the SAM CLI is needed to deploy anyway. Every client honours AWS_ENDPOINT_URL, which is how
the tests point `publish` at the emulator.

    deploy.py preflight --stage dev       stop, naming what is missing, before anything changes
    deploy.py publish --stage dev         or with SITE_BUCKET, DISTRIBUTION_ID and PAGES_STORE_ARN set, or
                                          --bucket/--distribution/--pages-store; prerenders the pages from the
                                          live shop first (SITE_URL or --site), lists them in the pages store once uploaded
    deploy.py report --stage dev          the shop's address, the DNS records and SES steps still to do
    deploy.py verify-email ADDRESS --stage dev   SES mails ADDRESS a link that verifies it (sandbox logins)
    deploy.py edge --stage dev            the edge's web ACL (template.yaml's EdgeWebAcl) as its own stack in
                                          us-east-1, for a stack elsewhere; prints the WebAclArn to set
    deploy.py destroy --stage dev [--purge-data] [--yes]
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import mimetypes
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent

IMMUTABLE = "public, max-age=31536000, immutable"
NO_CACHE = "no-cache"
STALE_TAG = ("release", "stale")  # the web bucket's lifecycle rule deletes these after 7 days
# Vite names built assets name-HASH.ext (8 characters of base64url hash).
HASHED = re.compile(r"^assets/.+[-.][A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$")
PLACEHOLDER_DOMAINS = ("example.com", "example.org", "example.net")
# Renders every drink, category and content page from a running shop into the build (knownPaths.json, "about").
PRERENDER_SCRIPT = ROOT / "frontend" / "scripts" / "prerender-pages.mjs"
# More changed pages than this are invalidated with one wildcard path: CloudFront charges per path.
MAX_INVALIDATION_PATHS = 50
# CloudFront's key value store (the site routes function's PagesStore): at most 50 keys put or deleted per
# UpdateKeys call (and 3 MB, far above 50 short keys), 50 listed per ListKeys page, keys of at most 512 bytes.
MAX_STORE_CHANGES = 50
MAX_STORE_KEY_BYTES = 512
# PagesStore's value for a page: the key alone says the bucket has it.
STORE_VALUE = "1"

mimetypes.add_type("application/javascript", ".js")
mimetypes.add_type("application/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("image/webp", ".webp")
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("font/woff2", ".woff2")


class Stop(Exception):
    """Something the operator must fix; the message says what and how."""


# ---------------------------------------------------------------------------------------------------------
# Settings: samconfig.toml is the one place a stage's settings live.


@dataclass
class Stage:
    name: str
    stack: str
    region: str
    parameters: dict[str, str]


def load_stage(name: str, path: Path = ROOT / "samconfig.toml") -> Stage:
    config = tomllib.loads(path.read_text())
    if name not in config:
        raise Stop(f"samconfig.toml has no [{name}] settings: STAGE is dev or prod")
    section = config[name]
    deploy = section.get("deploy", {}).get("parameters", {})
    stack = section.get("global", {}).get("parameters", {}).get("stack_name") or deploy.get("stack_name")
    region = deploy.get("region") or config.get("default", {}).get("deploy", {}).get("parameters", {}).get("region")
    if not stack or not region:
        raise Stop(f"samconfig.toml [{name}] needs a stack_name and a region")
    overrides = deploy.get("parameter_overrides", "")
    if isinstance(overrides, list):
        overrides = " ".join(overrides)
    parameters = dict(item.split("=", 1) for item in shlex.split(overrides))
    return Stage(name, stack, region, parameters)


def session(region: str):
    import boto3

    return boto3.session.Session(region_name=region)


def client(sess, service: str, region: str | None = None):
    from botocore.config import Config

    endpoint = os.environ.get("AWS_ENDPOINT_URL") or None
    # An emulator has no per-bucket host names: S3 goes path-style there.
    config = Config(s3={"addressing_style": "path"}) if endpoint else None
    return sess.client(service, region_name=region or sess.region_name, endpoint_url=endpoint, config=config)


def stack_outputs(sess, stack: str) -> dict[str, str]:
    from botocore.exceptions import ClientError

    try:
        described = client(sess, "cloudformation").describe_stacks(StackName=stack)["Stacks"][0]
    except ClientError as err:
        raise Stop(f"stack {stack} not found in {sess.region_name}: run make deploy first ({err})") from err
    return {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs", [])}


# ---------------------------------------------------------------------------------------------------------
# Preflight: every check runs, and all problems are listed at once, before anything is changed.


def is_placeholder(address: str) -> bool:
    domain = address.rpartition("@")[2].lower()
    return any(domain == d or domain.endswith("." + d) for d in PLACEHOLDER_DOMAINS)


def static_problems(stage: Stage) -> list[str]:
    """What samconfig.toml alone shows to be wrong."""
    p = stage.parameters
    problems = []
    where = f"samconfig.toml [{stage.name}.deploy.parameters] parameter_overrides"
    mail_from = p.get("MailFrom", "")
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", mail_from):
        problems.append(f"MailFrom={mail_from!r} is not an e-mail address: set the shop's sender in {where}")
    elif is_placeholder(mail_from):
        problems.append(f"MailFrom={mail_from} is a placeholder: set the shop's own sender in {where}")
    if not re.fullmatch(r"[A-Za-z0-9_-]{43}", p.get("TokenPublicKey", "")):
        problems.append(
            f"TokenPublicKey is not set: `make token-key STAGE={stage.name}` makes the key pair and prints it for {where}"
        )
    admins = [a.strip() for a in p.get("AdminEmails", "").split(",") if a.strip()]
    if not admins:
        problems.append(f"AdminEmails is empty: nobody could run the shop; set it in {where}")
    for admin in admins:
        if is_placeholder(admin):
            problems.append(f"AdminEmails has the placeholder {admin}: set the real admins in {where}")
    domain, cert = p.get("DomainName", ""), p.get("CertificateArn", "")
    if bool(domain) != bool(cert):
        problems.append("DomainName and CertificateArn go together: set both, or neither to use CloudFront's address")
    if cert and ":acm:us-east-1:" not in cert:
        problems.append(f"CertificateArn {cert} is not in us-east-1: CloudFront only reads certificates there")
    if stage.name == "prod" and not p.get("AlarmEmail"):
        problems.append(f"AlarmEmail is empty: production alarms would reach nobody; set it in {where}")
    # EdgeWaf=off serves the shop without the web ACL (the floor's largest optional part): nothing to make.
    if stage.region != EDGE_REGION and not p.get("WebAclArn") and p.get("EdgeWaf", "on") != "off":
        problems.append(
            f"WebAclArn is not set: CloudFront's web ACL can only be made in {EDGE_REGION}; "
            f"`make edge STAGE={stage.name}` makes it there and prints the ARN for {where}"
        )
    return problems


# ---------------------------------------------------------------------------------------------------------
# The edge: template.yaml's EdgeWebAcl, which a stack outside us-east-1 cannot make itself (CloudFront's web
# ACLs live there), deployed from the same definition as a small stack of its own.

EDGE_REGION = "us-east-1"


def edge_stack_name(stage: Stage) -> str:
    return f"{stage.stack}-edge"


def edge_template(template: dict, stage: Stage) -> dict:
    """The edge stack's template: template.yaml's EdgeWebAcl and the parameters it reads, named for the
    shop's stack, with its ARN as the output."""
    acl = copy.deepcopy(template["Resources"]["EdgeWebAcl"])
    acl.pop("Condition", None)
    props = acl["Properties"]
    props["Name"] = f"{stage.stack}-edge"
    props["VisibilityConfig"]["MetricName"] = f"{stage.stack}-edge"
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": f"The edge web ACL in front of the CloudFront of {stage.stack} (template.yaml, EdgeWebAcl)",
        "Parameters": {"EdgeRateLimit": template["Parameters"]["EdgeRateLimit"]},
        "Resources": {"EdgeWebAcl": acl},
        "Outputs": {"WebAclArn": {"Value": {"Fn::GetAtt": ["EdgeWebAcl", "Arn"]}}},
    }


def deploy_edge(stage: Stage, template: Path = ROOT / "template.yaml") -> str:
    """Creates or updates the edge stack in us-east-1 and answers the web ACL's ARN."""
    from botocore.exceptions import ClientError

    sys.path.insert(0, str(ROOT / "scripts"))
    import check_template

    body = json.dumps(edge_template(check_template.load(template), stage))
    cfn = client(session(EDGE_REGION), "cloudformation")
    name = edge_stack_name(stage)
    parameters = [
        {"ParameterKey": "EdgeRateLimit", "ParameterValue": stage.parameters[key]}
        for key in ("EdgeRateLimit",)
        if stage.parameters.get(key)
    ]
    try:
        cfn.describe_stacks(StackName=name)
        exists = True
    except ClientError:
        exists = False
    try:
        if exists:
            cfn.update_stack(StackName=name, TemplateBody=body, Parameters=parameters)
            cfn.get_waiter("stack_update_complete").wait(StackName=name)
        else:
            cfn.create_stack(StackName=name, TemplateBody=body, Parameters=parameters)
            cfn.get_waiter("stack_create_complete").wait(StackName=name)
    except ClientError as err:
        if "No updates are to be performed" not in str(err):
            raise Stop(f"the edge stack {name} in {EDGE_REGION} failed: {err}") from err
    outputs = stack_outputs(session(EDGE_REGION), name)
    return outputs["WebAclArn"]


def account_problems(sess, stage: Stage) -> tuple[list[str], list[str]]:
    """What the AWS account shows to be missing. Returns (problems, notes)."""
    from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

    problems: list[str] = []
    notes: list[str] = []
    try:
        identity = client(sess, "sts").get_caller_identity()
    except (NoCredentialsError, ClientError, BotoCoreError) as err:
        return [f"AWS credentials: none usable ({err}); set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY"], []
    notes.append(f"account {identity['Account']}, region {stage.region}, stack {stage.stack}")

    problems += secret_problems(client(sess, "secretsmanager"), stage)

    ses = client(sess, "sesv2")
    mail_from = stage.parameters.get("MailFrom", "")
    domain = mail_from.rpartition("@")[2]
    creates = stage.parameters.get("CreateMailIdentity", "true") == "true"
    owned = stack_resource(sess, stage.stack, "MailIdentity")
    status = identity_status(ses, domain) if domain else None
    if creates and status is not None and owned is None:
        problems.append(
            f"SES identity {domain} already exists in {stage.region} outside this stack: "
            f"add CreateMailIdentity=false to the stage's parameter_overrides"
        )
    if not creates and status is None and identity_status(ses, mail_from) is None:
        problems.append(
            f"CreateMailIdentity=false but neither {domain} nor {mail_from} is an SES identity in {stage.region}"
        )
    if not creates and status not in (None, True) and identity_status(ses, mail_from) is not True:
        problems.append(f"sender {mail_from}: its SES identity is not verified yet (DNS records or the link SES mailed)")

    certificate = stage.parameters.get("CertificateArn")
    if certificate and ":acm:us-east-1:" in certificate:
        problems += certificate_problems(client(sess, "acm", "us-east-1"), certificate, stage.parameters.get("DomainName", ""))

    if not ses.get_account().get("ProductionAccessEnabled"):
        notes.append("SES is in the sandbox here: mail reaches verified addresses only (docs/deploy.md: leave the sandbox)")
        problems += sandbox_problems(ses, stage)
    return problems, notes


def certificate_problems(acm, arn: str, domain: str) -> list[str]:
    """CloudFront takes only an issued certificate that covers the domain."""
    from botocore.exceptions import ClientError

    try:
        found = acm.describe_certificate(CertificateArn=arn)["Certificate"]
    except ClientError as err:
        return [f"CertificateArn {arn}: not found in us-east-1 ({err.response['Error']['Code']})"]
    problems = []
    if found.get("Status") != "ISSUED":
        problems.append(f"CertificateArn {arn} is {found.get('Status')}, not ISSUED: finish its DNS validation first")
    names = found.get("SubjectAlternativeNames") or [found.get("DomainName", "")]
    parent = domain.partition(".")[2]
    if domain not in names and f"*.{parent}" not in names:
        problems.append(f"CertificateArn {arn} covers {', '.join(names)}, not {domain}")
    return problems


def template_secrets(stage: Stage, template: Path = ROOT / "template.yaml") -> dict[str, str]:
    """The secrets the functions read at cold start: each `NAME_SECRET_ID: !Sub "shop/${Stage}/..."` of
    template.yaml, as {secret id: NAME}."""
    found = {}
    for name, value in re.findall(r'(\w+)_SECRET_ID: !Sub "([^"]+)"', template.read_text()):
        found[value.replace("${Stage}", stage.parameters.get("Stage", stage.name))] = name
    return found


# Secrets someone else issues, or that need a particular form: how to store each (docs/deploy.md).
SECRET_HINTS = {
    "TOKEN_SIGNING_KEY": "an Ed25519 private key (docs/deploy.md, step 3: `make token-key`)",
    "STRIPE_SECRET_KEY": "Stripe's secret key: make secret STAGE={stage} NAME={secret} FROM_STDIN=yes < key.txt",
    "STRIPE_WEBHOOK_SECRET": "the webhook's signing secret (a placeholder until the endpoint exists): "
    "make secret STAGE={stage} NAME={secret}",
}


def token_key(secrets, stage: Stage) -> str:
    """Makes the Ed25519 key pair that signs login tokens: the private half (base64 PKCS#8) becomes the auth
    function's secret, never printed; the public half (base64url, 43 characters) is answered, for
    samconfig.toml's `TokenPublicKey`. An existing key is kept: replacing it logs everyone out."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    secret = next(s for s, name in template_secrets(stage).items() if name == "TOKEN_SIGNING_KEY")
    try:
        secrets.describe_secret(SecretId=secret)
        raise Stop(f"{secret} exists already: replacing it logs everyone out; delete it first to rotate")
    except secrets.exceptions.ResourceNotFoundException:
        pass
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    secrets.create_secret(Name=secret, SecretString=base64.b64encode(private).decode())
    return (
        f"created {secret}; put the public key in samconfig.toml's [{stage.name}] parameter_overrides:\n"
        f"    TokenPublicKey={base64.urlsafe_b64encode(public).decode().rstrip('=')}"
    )


def secret_problems(secrets, stage: Stage, template: Path = ROOT / "template.yaml") -> list[str]:
    """Every secret the stack needs must exist: each `...SecretName` parameter (the stack resolves them at
    deploy) and each secret template.yaml's functions name (they read them at cold start)."""
    from botocore.exceptions import ClientError

    wanted = [(secret, name) for name, secret in sorted(stage.parameters.items()) if name.endswith("SecretName")]
    wanted += sorted(template_secrets(stage, template).items())
    problems = []
    for secret, name in wanted:
        try:
            secrets.describe_secret(SecretId=secret)
        except ClientError as err:
            if err.response["Error"]["Code"] != "ResourceNotFoundException":
                raise
            how = SECRET_HINTS.get(name, "make secret STAGE={stage} NAME={secret}").format(stage=stage.name, secret=secret)
            problems.append(f"secret {secret} ({name}) does not exist in {stage.region}: create it, for example\n    {how}")
    return problems


def sandbox_problems(ses, stage: Stage) -> list[str]:
    """In the SES sandbox an admin whose address (or domain) is not verified never gets a login code."""
    admins = [a.strip() for a in stage.parameters.get("AdminEmails", "").split(",") if a.strip()]
    return [
        f"SES sandbox: admin {admin} is not a verified address, so their login code would never arrive:\n"
        f"    make verify-email STAGE={stage.name} EMAIL={admin}   (then click the link SES sends)"
        for admin in admins
        if identity_status(ses, admin) is not True and identity_status(ses, admin.rpartition("@")[2]) is not True
    ]


def identity_status(ses, identity: str) -> bool | None:
    """None when not an identity; else whether it is verified."""
    from botocore.exceptions import ClientError

    try:
        found = ses.get_email_identity(EmailIdentity=identity)
    except ClientError as err:
        if err.response["Error"]["Code"] in ("NotFoundException", "NotFound"):
            return None
        raise
    return found.get("VerificationStatus") == "SUCCESS" or bool(found.get("VerifiedForSendingStatus"))


def stack_resource(sess, stack: str, logical_id: str) -> str | None:
    from botocore.exceptions import ClientError

    try:
        found = client(sess, "cloudformation").describe_stack_resource(StackName=stack, LogicalResourceId=logical_id)
    except ClientError:
        return None
    return found["StackResourceDetail"].get("PhysicalResourceId")


def preflight(stage: Stage) -> None:
    problems = static_problems(stage)
    account, notes = account_problems(session(stage.region), stage)
    for note in notes:
        print(f"  {note}")
    problems += account
    if problems:
        raise Stop("nothing was changed; first fix:\n- " + "\n- ".join(problems))
    print(f"preflight: {stage.name} is ready to deploy")


# ---------------------------------------------------------------------------------------------------------
# Prerendered pages: rendered from the live shop just before the upload, so a deep link paints the real page.


def prerendered_pages(dist: Path) -> list[Path]:
    """The prerendered copies in a build: every index.html below its top (the build's own is at the top)."""
    return [p for p in sorted(dist.rglob("index.html")) if p.parent != dist]


def staged_copy(dist: Path, into: Path) -> Path:
    """The build as it goes out, in a folder of its own: every file but what the build keeps for itself (dot
    folders and files: Vite's manifest, the prerender's server bundle, the build's id) and any prerendered
    page left in it from before the shops kept their pages apart. The pages are prerendered into this copy, so
    the build stays as it was built, for the local shops serving it and the next publish."""
    for path in sorted(dist.rglob("*")):
        relative = path.relative_to(dist)
        if not path.is_file() or any(part.startswith(".") for part in relative.parts):
            continue
        if (path.name == "index.html" and path.parent != dist) or relative.as_posix() == "prerendered.json":
            continue
        (into / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, into / relative)
    return into


def prerender(dist: Path, out: Path, site: str | None, script: Path = PRERENDER_SCRIPT) -> str:
    """Replaces the prerendered pages in `out` (the staged copy of the build `dist`) with the shop's at
    `site`: answers what happened, for the log. Without an address or a script the build goes out without
    them (the app renders those pages in the browser); a failing script stops the publish."""
    for page in prerendered_pages(out):
        page.unlink()
    if not script.is_file():
        return f"{script.relative_to(ROOT) if script.is_relative_to(ROOT) else script} not found: publishing without prerendered pages"
    if not site:
        return "no shop address known (the stack's SiteUrl, SITE_URL or --site): publishing without prerendered pages"
    try:
        run = subprocess.run(
            ["node", str(script), "--api", site.rstrip("/"), "--dist", str(dist), "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise Stop(f"prerendering the pages from {site} could not run ({err}); nothing was uploaded") from err
    if run.returncode != 0:
        raise Stop(
            f"prerendering the pages from {site} failed (exit {run.returncode}); nothing was uploaded. "
            f"Fix it, or publish without them (--no-prerender):\n{run.stdout}{run.stderr}"
        )
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    return lines[-1] if lines else f"prerendered from {site}"


# ---------------------------------------------------------------------------------------------------------
# Publish: hashed assets first (immutable), unhashed files after, index.html last (no-cache); files the new
# release dropped are tagged stale, so the lifecycle rule removes them a week later; then CloudFront forgets
# index.html. Unchanged files are not uploaded again, so a re-run changes nothing.


@dataclass
class Published:
    uploaded: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    staled: list[str] = field(default_factory=list)
    invalidation: str | None = None
    # PagesStore's changes (None: no store given), and pages too long a key to list (they get the app).
    store: StoreSync | None = None


@dataclass
class StoreSync:
    put: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    too_long: list[str] = field(default_factory=list)


def listed_pages(dist: Path, files: dict[str, Path]) -> set[str]:
    """The prerendered pages of this build: dist/prerendered.json's (prerender-pages.mjs writes it) that the
    build still has (--no-prerender and a run without an address delete the pages but not the list)."""
    listing = dist / "prerendered.json"
    if not listing.is_file():
        return set()
    try:
        listed = json.loads(listing.read_text())
    except ValueError as err:
        raise Stop(f"{listing} is not JSON ({err}): prerender the pages again") from err
    return {name for name in listed if isinstance(name, str) and name in files}


def sync_pages_store(kvs, store: str, pages: set[str]) -> StoreSync:
    """Makes the store's keys exactly `pages` (S3 object keys: what the site routes function asks for), in
    calls of at most MAX_STORE_CHANGES, each passing the ETag the previous one returned."""
    done = StoreSync()
    done.too_long = sorted(p for p in pages if len(p.encode()) > MAX_STORE_KEY_BYTES)
    wanted = pages - set(done.too_long)
    have: dict[str, str] = {}
    token = None
    while True:
        listed = kvs.list_keys(KvsARN=store, MaxResults=MAX_STORE_CHANGES, **({"NextToken": token} if token else {}))
        have.update((item["Key"], item.get("Value", "")) for item in listed.get("Items", []))
        token = listed.get("NextToken")
        if not token:
            break
    done.put = sorted(p for p in wanted if have.get(p) != STORE_VALUE)
    done.deleted = sorted(set(have) - wanted)
    changes = [("put", key) for key in done.put] + [("delete", key) for key in done.deleted]
    if not changes:
        return done
    etag = kvs.describe_key_value_store(KvsARN=store)["ETag"]
    for start in range(0, len(changes), MAX_STORE_CHANGES):
        batch = changes[start : start + MAX_STORE_CHANGES]
        puts = [{"Key": key, "Value": STORE_VALUE} for kind, key in batch if kind == "put"]
        deletes = [{"Key": key} for kind, key in batch if kind == "delete"]
        etag = kvs.update_keys(
            KvsARN=store, IfMatch=etag, **({"Puts": puts} if puts else {}), **({"Deletes": deletes} if deletes else {})
        )["ETag"]
    return done


def cache_control(key: str) -> str:
    return IMMUTABLE if HASHED.match(key) else NO_CACHE


def content_type(key: str) -> str:
    guessed, _ = mimetypes.guess_type(key)
    if guessed and (guessed.startswith("text/") or guessed in ("application/javascript", "application/json", "image/svg+xml")):
        return f"{guessed}; charset=utf-8"
    return guessed or "application/octet-stream"


def upload_order(keys: list[str]) -> list[str]:
    hashed = sorted(k for k in keys if HASHED.match(k))
    others = sorted(k for k in keys if not HASHED.match(k) and k != "index.html")
    return hashed + others + (["index.html"] if "index.html" in keys else [])


def is_stale(s3, bucket: str, key: str) -> bool:
    tags = s3.get_object_tagging(Bucket=bucket, Key=key).get("TagSet", [])
    return {"Key": STALE_TAG[0], "Value": STALE_TAG[1]} in tags


def publish(
    s3,
    cloudfront,
    dist: Path,
    bucket: str,
    distribution: str | None,
    now: datetime | None = None,
    kvs=None,
    store: str | None = None,
) -> Published:
    files = {p.relative_to(dist).as_posix(): p for p in sorted(dist.rglob("*")) if p.is_file()}
    if "index.html" not in files:
        raise Stop(f"{dist} has no index.html: build the storefront first (cd frontend && npm run build)")
    existing: dict[str, str] = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for obj in page.get("Contents", []):
            existing[obj["Key"]] = obj["ETag"].strip('"')

    done = Published()
    for key in upload_order(list(files)):
        body = files[key].read_bytes()
        wanted = (cache_control(key), content_type(key))
        if existing.get(key) == hashlib.md5(body).hexdigest():
            head = s3.head_object(Bucket=bucket, Key=key)
            if (head.get("CacheControl"), head.get("ContentType")) == wanted and not is_stale(s3, bucket, key):
                done.unchanged.append(key)
                continue
        s3.put_object(Bucket=bucket, Key=key, Body=body, CacheControl=wanted[0], ContentType=wanted[1])
        done.uploaded.append(key)

    since = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for key in sorted(set(existing) - set(files)):
        if is_stale(s3, bucket, key):
            continue
        head = s3.head_object(Bucket=bucket, Key=key)
        # Copied onto itself (new metadata is what S3 requires for that) so its age, which the lifecycle
        # rule counts, starts now rather than at its first upload.
        s3.copy_object(
            Bucket=bucket,
            Key=key,
            CopySource={"Bucket": bucket, "Key": key},
            MetadataDirective="REPLACE",
            CacheControl=head.get("CacheControl", NO_CACHE),
            ContentType=head.get("ContentType", "application/octet-stream"),
            Metadata={"stale-since": since},
            TaggingDirective="REPLACE",
            Tagging=f"{STALE_TAG[0]}={STALE_TAG[1]}",
        )
        done.staled.append(key)

    # Only now, with every file uploaded, do the pages go into the store: a key never names a missing file.
    # A page gone from the build leaves it (its file is kept a week, stale), so the function sends the app.
    if kvs is not None and store:
        done.store = sync_pages_store(kvs, store, listed_pages(dist, files))

    # CloudFront caches a prerendered page under its copy's key (the site routes function asks for it).
    changed_pages = ["/" + quote(k, safe="/-_.~") for k in done.uploaded if not HASHED.match(k)]
    if changed_pages and distribution:
        paths = sorted(set(changed_pages) | {"/index.html"})
        if len(paths) > MAX_INVALIDATION_PATHS:
            paths = ["/*"]
        answer = cloudfront.create_invalidation(
            DistributionId=distribution,
            InvalidationBatch={
                "Paths": {"Quantity": len(paths), "Items": paths},
                "CallerReference": f"publish-{time.time_ns()}",
            },
        )
        done.invalidation = answer["Invalidation"]["Id"]
    return done


def publish_command(args) -> None:
    bucket = args.bucket or os.environ.get("SITE_BUCKET")
    distribution = args.distribution or os.environ.get("DISTRIBUTION_ID")
    store = args.pages_store or os.environ.get("PAGES_STORE_ARN")
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    site = args.site or os.environ.get("SITE_URL")
    if args.stage and not bucket:
        stage = load_stage(args.stage)
        region = stage.region
        outputs = stack_outputs(session(region), stage.stack)
        bucket, distribution = outputs["WebBucketName"], distribution or outputs.get("DistributionId")
        store = store or outputs.get("PagesStoreArn")
        site = site or outputs.get("SiteUrl")
    if not bucket:
        raise Stop("publish needs the site bucket: STAGE=dev|prod, or SITE_BUCKET (and DISTRIBUTION_ID, PAGES_STORE_ARN)")
    dist = Path(args.dist)
    if not (dist / "index.html").is_file():
        raise Stop(f"{dist} has no index.html: build the storefront first (cd frontend && npm run build)")
    with tempfile.TemporaryDirectory(prefix="publish-") as staging:
        staged = staged_copy(dist, Path(staging))
        if args.no_prerender:
            print("publish: --no-prerender: publishing without prerendered pages")
        else:
            print(f"publish: {prerender(dist, staged, site)}")
        sess = session(region or "eu-west-2")
        kvs = None
        if store:
            try:
                import awscrt  # noqa: F401  (the key value store's API is signed with SigV4A, which needs it)
            except ImportError as err:
                raise Stop("the pages store's client needs the awscrt package: make sam-cli installs it") from err
            kvs = client(sess, "cloudfront-keyvaluestore")
        done = publish(client(sess, "s3"), client(sess, "cloudfront"), staged, bucket, distribution, kvs=kvs, store=store)
    print(
        f"publish: {len(done.uploaded)} uploaded, {len(done.unchanged)} unchanged, "
        f"{len(done.staled)} of the previous release kept for 7 days"
    )
    if done.invalidation:
        print(f"publish: CloudFront invalidation {done.invalidation} for index.html and the changed pages")
    elif done.uploaded and not distribution:
        print("publish: no DISTRIBUTION_ID given: CloudFront keeps serving its cached index.html until it expires")
    if done.store is not None:
        print(f"publish: pages store: {len(done.store.put)} pages listed, {len(done.store.deleted)} removed")
        if done.store.too_long:
            print(f"publish: not listed (keys over {MAX_STORE_KEY_BYTES} bytes; they get the app): {', '.join(done.store.too_long)}")
    else:
        print(
            "publish: no pages store given (PAGES_STORE_ARN or --pages-store): CloudFront serves the pages the "
            "store listed before, so a page this build dropped gets S3's error once its file is deleted"
        )


# ---------------------------------------------------------------------------------------------------------
# After a deploy: where the shop is and what the operator still has to do.


def report(stage: Stage) -> None:
    sess = session(stage.region)
    outputs = stack_outputs(sess, stage.stack)
    print(f"\nThe shop ({stage.name}): {outputs['SiteUrl']}")
    if stage.parameters.get("DomainName"):
        print(f"  DNS: {stage.parameters['DomainName']} CNAME (or alias) {outputs['DistributionDomain']}")
    ses = client(sess, "sesv2")
    domain = stage.parameters.get("MailFrom", "").rpartition("@")[2]
    if identity_status(ses, domain) is not True and "MailDkimRecords" in outputs:
        print(f"  Mail: SES has not verified {domain} yet. Add these DNS records (CNAME):")
        for record in outputs["MailDkimRecords"].split(" ; "):
            print(f"    {record}")
    if not ses.get_account().get("ProductionAccessEnabled"):
        print("  Mail: this account is in the SES sandbox (verified recipients only): see docs/deploy.md")
    if not stage.parameters.get("AlarmEmail"):
        print("  Alarms: no AlarmEmail set; they show in the CloudWatch console only")


# ---------------------------------------------------------------------------------------------------------
# One-off repairs, run by the sender function itself (it has the tables' permissions; nobody needs them).


def backfill_counts(lam, function: str) -> dict:
    """Asks the sender function to set the list counts from the subscribers (idempotent): answers its reply."""
    answer = lam.invoke(FunctionName=function, Payload=json.dumps({"task": "backfill-counts"}).encode())
    body = answer["Payload"].read().decode() or "{}"
    if answer.get("FunctionError"):
        raise Stop(f"the recount failed in {function}: {body} (its log group has the details; run it again)")
    return json.loads(body)


def backfill_command(stage: Stage) -> None:
    sess = session(stage.region)
    function = stack_resource(sess, stage.stack, "SenderFunction")
    if not function:
        raise Stop(f"stack {stage.stack} has no SenderFunction in {stage.region}: run make deploy first")
    counts = backfill_counts(client(sess, "lambda"), function).get("listCounts", {})
    print(f"The list counts of {stage.stack} now match its subscribers:")
    for combination, count in sorted(counts.items()):
        print(f"  {combination.replace('|', ' + ')}: {count}")


PERSON_TABLES = {"REVIEWS_TABLE": "ReviewsTable", "CODES_TABLE": "CodesTable", "CONTENT_TABLE": "ContentTable",
                 "MAIL_TABLE": "MailTable"}


def person_tables(sess, stack: str) -> dict[str, str]:
    """The physical names of the tables whose personal items carry the data rights' `person` tag."""
    tables = {}
    for variable, logical_id in PERSON_TABLES.items():
        name = stack_resource(sess, stack, logical_id)
        if not name:
            raise Stop(f"stack {stack} has no {logical_id}: run make deploy first")
        tables[variable] = name
    return tables


def backfill_person_command(stage: Stage) -> None:
    """Tags the stage's personal items written before the `person` index, with the operator's credentials,
    through the owners' own rules (the local crate's backfill-person binary). Idempotent."""
    tables = person_tables(session(stage.region), stage.stack)
    env = {**os.environ, **tables, "AWS_REGION": stage.region}
    subprocess.run(["cargo", "run", "--quiet", "-p", "local", "--bin", "backfill-person"], cwd=ROOT, env=env,
                   check=True)


def reconcile(lam, function: str, month: str) -> dict:
    """Asks the orders expiry function for a month's reconciliation (the shop's payments and refunds beside
    Stripe's balance transactions): answers its reply, whose `text` is the report as printed."""
    if not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", month):
        raise Stop(f"MONTH must be a month as YYYY-MM, e.g. 2026-03 (not {month!r})")
    answer = lam.invoke(FunctionName=function, Payload=json.dumps({"task": "reconcile", "month": month}).encode())
    body = answer["Payload"].read().decode() or "{}"
    if answer.get("FunctionError"):
        raise Stop(f"the reconciliation failed in {function}: {body} (its log group has the details)")
    return json.loads(body)


def reconcile_command(stage: Stage, month: str) -> None:
    sess = session(stage.region)
    function = stack_resource(sess, stage.stack, "OrdersExpiryFunction")
    if not function:
        raise Stop(f"stack {stage.stack} has no OrdersExpiryFunction in {stage.region}: run make deploy first")
    print(reconcile(client(sess, "lambda"), function, month)["text"], end="")


# ---------------------------------------------------------------------------------------------------------
# Teardown: the web bucket is emptied so the stack can go; tables and images are kept (Retain) unless
# --purge-data.


def empty_bucket(s3, bucket: str) -> int:
    removed = 0
    for page in s3.get_paginator("list_object_versions").paginate(Bucket=bucket):
        doomed = [
            {"Key": v["Key"], "VersionId": v["VersionId"]}
            for v in page.get("Versions", []) + page.get("DeleteMarkers", [])
        ]
        for start in range(0, len(doomed), 1000):
            s3.delete_objects(Bucket=bucket, Delete={"Objects": doomed[start : start + 1000], "Quiet": True})
        removed += len(doomed)
    return removed


def destroy(stage: Stage, purge_data: bool, yes: bool) -> None:
    from botocore.exceptions import ClientError

    sess = session(stage.region)
    cfn, s3 = client(sess, "cloudformation"), client(sess, "s3")
    try:
        resources = [
            r
            for page in cfn.get_paginator("list_stack_resources").paginate(StackName=stage.stack)
            for r in page["StackResourceSummaries"]
        ]
    except ClientError as err:
        raise Stop(f"stack {stage.stack} not found in {stage.region} ({err})") from err
    by_type = lambda kind: [r for r in resources if r["ResourceType"] == kind and r.get("PhysicalResourceId")]
    tables = [r["PhysicalResourceId"] for r in by_type("AWS::DynamoDB::Table")]
    buckets = {r["LogicalResourceId"]: r["PhysicalResourceId"] for r in by_type("AWS::S3::Bucket")}
    kept = "deleted too" if purge_data else "kept"
    print(f"destroy: stack {stage.stack} in {stage.region}; tables {', '.join(tables)} and the images bucket {kept}")
    if not yes:
        typed = input(f"Type the stack name ({stage.stack}) to go on: ").strip()
        if typed != stage.stack:
            raise Stop("not confirmed: nothing was changed")
    if "WebBucket" in buckets:
        print(f"destroy: emptied {buckets['WebBucket']} ({empty_bucket(s3, buckets['WebBucket'])} objects)")
    cfn.delete_stack(StackName=stage.stack)
    cfn.get_waiter("stack_delete_complete").wait(StackName=stage.stack, WaiterConfig={"Delay": 15, "MaxAttempts": 240})
    print(f"destroy: stack {stage.stack} deleted")
    if purge_data:
        dynamodb = client(sess, "dynamodb")
        for table in tables:
            dynamodb.delete_table(TableName=table)
            print(f"destroy: table {table} deleted")
        for logical, bucket in buckets.items():
            if logical != "WebBucket":
                empty_bucket(s3, bucket)
                s3.delete_bucket(Bucket=bucket)
                print(f"destroy: bucket {bucket} deleted")


# ---------------------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("preflight", "report", "backfill-counts", "backfill-person", "edge"):
        sub.add_parser(name).add_argument("--stage", required=True)
    pub = sub.add_parser("publish")
    pub.add_argument("--stage")
    pub.add_argument("--bucket")
    pub.add_argument("--distribution")
    pub.add_argument("--pages-store", help="the ARN of the key value store that lists the prerendered pages (else PAGES_STORE_ARN or the stack's PagesStoreArn)")
    pub.add_argument("--dist", default=str(ROOT / "frontend" / "dist"))
    pub.add_argument("--site", help="the live shop's address, to prerender its pages from (else SITE_URL or the stack's SiteUrl)")
    pub.add_argument("--no-prerender", action="store_true", help="publish without prerendered pages")
    verify = sub.add_parser("verify-email")
    verify.add_argument("address")
    verify.add_argument("--stage", required=True)
    secret = sub.add_parser("secret")
    secret.add_argument("name")
    secret.add_argument("--stage", required=True)
    # A value someone else issued (Stripe's keys): read from standard input, never from the command line.
    secret.add_argument("--from-stdin", action="store_true")
    token = sub.add_parser("token-key")
    token.add_argument("--stage", required=True)
    money = sub.add_parser("reconcile")
    money.add_argument("--stage", required=True)
    money.add_argument("--month", required=True)
    down = sub.add_parser("destroy")
    down.add_argument("--stage", required=True)
    down.add_argument("--purge-data", action="store_true")
    down.add_argument("--yes", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.command == "preflight":
            preflight(load_stage(args.stage))
        elif args.command == "publish":
            publish_command(args)
        elif args.command == "report":
            report(load_stage(args.stage))
        elif args.command == "backfill-counts":
            backfill_command(load_stage(args.stage))
        elif args.command == "backfill-person":
            backfill_person_command(load_stage(args.stage))
        elif args.command == "edge":
            stage = load_stage(args.stage)
            arn = deploy_edge(stage)
            print(f"the edge's web ACL is {arn}; put WebAclArn={arn} in samconfig.toml's [{stage.name}] parameter_overrides")
        elif args.command == "reconcile":
            reconcile_command(load_stage(args.stage), args.month)
        elif args.command == "verify-email":
            stage = load_stage(args.stage)
            client(session(stage.region), "sesv2").create_email_identity(EmailIdentity=args.address)
            print(f"SES has mailed {args.address} a verification link ({stage.region}); click it, then deploy")
        elif args.command == "secret":
            stage = load_stage(args.stage)
            manager = client(session(stage.region), "secretsmanager")
            if args.from_stdin:
                value = sys.stdin.read().strip()
                if not value:
                    raise Stop("nothing on standard input: pipe the value in")
                try:
                    manager.create_secret(Name=args.name, SecretString=value)
                    print(f"created secret {args.name} in {stage.region}")
                except manager.exceptions.ResourceExistsException:
                    manager.put_secret_value(SecretId=args.name, SecretString=value)
                    print(f"stored a new value of secret {args.name} in {stage.region}")
            else:
                value = __import__("secrets").token_urlsafe(48)
                manager.create_secret(Name=args.name, SecretString=value)
                print(f"created secret {args.name} in {stage.region} (64 random characters)")
        elif args.command == "token-key":
            stage = load_stage(args.stage)
            print(token_key(client(session(stage.region), "secretsmanager"), stage))
        elif args.command == "destroy":
            destroy(load_stage(args.stage), args.purge_data, args.yes)
    except Stop as stop:
        print(f"{args.command}: {stop}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
