"""make deploy's preflight: it names what is missing before anything changes. The settings checks are
pure; the account checks run against the emulator's Secrets Manager and SES (moto)."""

import os
import sys
import tempfile
import unittest
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import deploy  # noqa: E402
from scripts.tests.test_publish import REGION, start_emulator  # noqa: E402


# A template whose functions read no secrets, for the checks of the SecretName parameters alone.
NO_SECRETS = Path(__file__).resolve().parent / "no_secrets.yaml"


def stage(**parameters) -> deploy.Stage:
    base = {
        "Stage": "dev",
        "JwtSecretName": "shop/dev/jwt-secret",
        "TokenPublicKey": "A" * 43,
        "MailFrom": "orders@drinks-shop.co.uk",
        "AdminEmails": "owner@drinks-shop.co.uk",
        # The edge stack's web ACL (a stack outside us-east-1 needs it: scripts/tests/test_edge.py).
        "WebAclArn": "arn:aws:wafv2:us-east-1:123456789012:global/webacl/drinks-shop-dev-edge/abc",
    }
    base.update(parameters)
    return deploy.Stage("dev", "drinks-shop-dev", REGION, {k: v for k, v in base.items() if v is not None})


class Settings(unittest.TestCase):
    def test_real_settings_pass(self):
        self.assertEqual(deploy.static_problems(stage()), [])

    def test_the_committed_samconfig_placeholders_stop_both_stages(self):
        for name in ("dev", "prod"):
            found = deploy.static_problems(deploy.load_stage(name))
            self.assertTrue(any(p.startswith("MailFrom=") and "placeholder" in p for p in found), found)
            self.assertTrue(any("AdminEmails has the placeholder" in p for p in found), found)

    def test_a_missing_token_public_key_says_how_to_make_one(self):
        found = deploy.static_problems(stage(TokenPublicKey=None))
        self.assertEqual(len(found), 1, found)
        self.assertIn("make token-key STAGE=dev", found[0])

    def test_a_sender_at_a_subdomain_of_example_com_is_a_placeholder(self):
        found = deploy.static_problems(stage(MailFrom="shop@mail.example.com"))
        self.assertEqual(len(found), 1)
        self.assertIn("placeholder", found[0])

    def test_a_sender_that_is_not_an_address_is_named(self):
        found = deploy.static_problems(stage(MailFrom="orders"))
        self.assertEqual(len(found), 1)
        self.assertIn("MailFrom='orders' is not an e-mail address", found[0])

    def test_a_custom_domain_needs_a_us_east_1_certificate(self):
        self.assertEqual(
            deploy.static_problems(stage(DomainName="shop.drinks-shop.co.uk")),
            ["DomainName and CertificateArn go together: set both, or neither to use CloudFront's address"],
        )
        cert = "arn:aws:acm:eu-west-2:123456789012:certificate/abc"
        found = deploy.static_problems(stage(DomainName="shop.drinks-shop.co.uk", CertificateArn=cert))
        self.assertEqual(len(found), 1)
        self.assertIn("not in us-east-1", found[0])
        cert = "arn:aws:acm:us-east-1:123456789012:certificate/abc"
        self.assertEqual(deploy.static_problems(stage(DomainName="shop.drinks-shop.co.uk", CertificateArn=cert)), [])

    def test_prod_needs_an_alarm_address(self):
        prod = stage()
        prod.name = "prod"
        self.assertEqual(len(deploy.static_problems(prod)), 1)
        prod.parameters["AlarmEmail"] = "ops@drinks-shop.co.uk"
        self.assertEqual(deploy.static_problems(prod), [])


class Account(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.process, endpoint = start_emulator()
        cls.saved = {k: os.environ.get(k) for k in ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
        os.environ.update(AWS_ENDPOINT_URL=endpoint, AWS_ACCESS_KEY_ID="local", AWS_SECRET_ACCESS_KEY="local")
        sess = deploy.session(REGION)
        cls.secrets = deploy.client(sess, "secretsmanager")
        cls.ses = deploy.client(sess, "sesv2")

    @classmethod
    def tearDownClass(cls):
        cls.process.kill()
        cls.process.wait()
        for k, v in cls.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def test_a_missing_secret_is_named_with_how_to_create_it(self):
        name = f"shop/{uuid.uuid4().hex[:8]}/jwt-secret"
        found = deploy.secret_problems(self.secrets, stage(JwtSecretName=name), NO_SECRETS)
        self.assertEqual(len(found), 1)
        self.assertIn(f"secret {name} (JwtSecretName) does not exist", found[0])
        self.assertIn(f"make secret STAGE=dev NAME={name}", found[0])

        self.secrets.create_secret(Name=name, SecretString="x" * 48)
        self.assertEqual(deploy.secret_problems(self.secrets, stage(JwtSecretName=name), NO_SECRETS), [])

    def test_every_secret_parameter_is_checked(self):
        found = deploy.secret_problems(
            self.secrets,
            stage(JwtSecretName=f"a/{uuid.uuid4().hex}", StripeSecretName=f"b/{uuid.uuid4().hex}"),
            NO_SECRETS,
        )
        self.assertEqual([p.split(" (")[1].split(")")[0] for p in found], ["JwtSecretName", "StripeSecretName"])

    def test_every_secret_a_function_reads_is_checked_with_how_to_store_it(self):
        stage_name = f"s{uuid.uuid4().hex[:8]}"
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        template = Path(folder.name) / "template.yaml"
        template.write_text(
            'Resources:\n  F:\n    Properties:\n      Environment:\n        Variables:\n'
            '          STRIPE_SECRET_KEY_SECRET_ID: !Sub "shop/${Stage}/orders/stripe-secret-key"\n'
            '          LOGIN_CODE_KEY_SECRET_ID: !Sub "shop/${Stage}/auth/login-code-key"\n'
        )
        found = deploy.secret_problems(self.secrets, stage(Stage=stage_name, JwtSecretName=None), template)
        self.assertEqual(len(found), 2, found)
        self.assertIn(f"secret shop/{stage_name}/orders/stripe-secret-key (STRIPE_SECRET_KEY)", found[1])
        self.assertIn("FROM_STDIN=yes", found[1])
        self.assertIn(f"make secret STAGE=dev NAME=shop/{stage_name}/auth/login-code-key", found[0])
        for secret in deploy.template_secrets(stage(Stage=stage_name), template):
            self.secrets.create_secret(Name=secret, SecretString="x" * 48)
        self.assertEqual(deploy.secret_problems(self.secrets, stage(Stage=stage_name, JwtSecretName=None), template), [])

    def test_the_committed_template_names_the_five_secrets_of_the_shop_and_stripes_two(self):
        names = sorted(deploy.template_secrets(stage()).values())
        self.assertEqual(
            names,
            [
                "LOGIN_CODE_KEY",
                "MAIL_LINK_KEY",
                "ORIGIN_VERIFY",
                "STRIPE_SECRET_KEY",
                "STRIPE_WEBHOOK_SECRET",
                "TOKEN_SIGNING_KEY",
                "UNSUBSCRIBE_KEY",
            ],
        )

    def test_in_the_sandbox_an_unverified_admin_is_named_until_verified(self):
        domain = f"{uuid.uuid4().hex[:8]}.co.uk"
        admins = f"owner@{domain},helper@{domain}"
        found = deploy.sandbox_problems(self.ses, stage(AdminEmails=admins))
        self.assertEqual(len(found), 2)
        self.assertIn(f"make verify-email STAGE=dev EMAIL=owner@{domain}", found[0])

        self.ses.create_email_identity(EmailIdentity=f"owner@{domain}")
        found = deploy.sandbox_problems(self.ses, stage(AdminEmails=admins))
        self.assertEqual(len(found), 1)
        self.assertIn(f"helper@{domain}", found[0])

        # A verified domain covers every address at it.
        self.ses.create_email_identity(EmailIdentity=domain)
        self.assertEqual(deploy.sandbox_problems(self.ses, stage(AdminEmails=admins)), [])

    def test_a_custom_domain_needs_an_issued_certificate_that_covers_it(self):
        acm = deploy.client(deploy.session("us-east-1"), "acm", "us-east-1")
        arn = acm.request_certificate(DomainName="*.drinks-shop.co.uk", ValidationMethod="DNS")["CertificateArn"]
        found = deploy.certificate_problems(acm, arn, "shop.drinks-shop.co.uk")
        self.assertEqual(found, [f"CertificateArn {arn} is PENDING_VALIDATION, not ISSUED: finish its DNS validation first"])
        found = deploy.certificate_problems(acm, arn, "drinks-shop.com")
        self.assertIn(f"CertificateArn {arn} covers *.drinks-shop.co.uk, not drinks-shop.com", found)
        missing = arn.rsplit("/", 1)[0] + "/00000000-0000-0000-0000-000000000000"
        self.assertEqual(len(deploy.certificate_problems(acm, missing, "shop.drinks-shop.co.uk")), 1)


if __name__ == "__main__":
    unittest.main()
