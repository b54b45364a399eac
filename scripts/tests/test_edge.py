"""The edge in template.yaml: AWS WAF in front of CloudFront (a rate-based rule per client address and AWS's
managed common rule set), the HTTP API reachable only through CloudFront, and the alarm near the day's mail
budget. Where the local stack cannot show them (no CloudFront, no WAF), the template and the edge stack that
`make edge` derives from it are checked here."""

import json
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import check_template  # noqa: E402
import deploy  # noqa: E402

TEMPLATE = check_template.load(check_template.ROOT / "template.yaml")
RESOURCES = TEMPLATE["Resources"]


def stage(region="eu-west-2", **parameters) -> deploy.Stage:
    base = {
        "TokenPublicKey": "A" * 43,
        "MailFrom": "orders@drinks-shop.co.uk",
        "AdminEmails": "owner@drinks-shop.co.uk",
    }
    base.update(parameters)
    return deploy.Stage("dev", "drinks-shop-dev", region, base)


class WebAcl(unittest.TestCase):
    def acl(self):
        return RESOURCES["EdgeWebAcl"]["Properties"]

    def rule(self, name):
        return next(rule for rule in self.acl()["Rules"] if rule["Name"] == name)

    def test_the_web_acl_is_cloudfronts_and_lets_through_what_no_rule_blocks(self):
        self.assertEqual(RESOURCES["EdgeWebAcl"]["Type"], "AWS::WAFv2::WebACL")
        self.assertEqual(self.acl()["Scope"], "CLOUDFRONT")
        self.assertEqual(self.acl()["DefaultAction"], {"Allow": {}})

    def test_one_client_address_is_limited_by_rate_and_answered_429_with_a_message(self):
        rule = self.rule("rate-per-client")
        statement = rule["Statement"]["RateBasedStatement"]
        self.assertEqual(statement["AggregateKeyType"], "IP")
        self.assertEqual(statement["Limit"], {"Ref": "EdgeRateLimit"})
        self.assertEqual(statement["EvaluationWindowSec"], 300)
        response = rule["Action"]["Block"]["CustomResponse"]
        self.assertEqual(response["ResponseCode"], 429)
        body = self.acl()["CustomResponseBodies"][response["CustomResponseBodyKey"]]
        self.assertEqual(body["ContentType"], "APPLICATION_JSON")
        self.assertIn("message", json.loads(body["Content"]))
        self.assertEqual(rule["Priority"], 0, "the rate comes first: a flood never reaches the other rules")

    def test_aws_common_rule_set_applies_but_lets_uploads_through_on_size(self):
        rule = self.rule("aws-common-rules")
        group = rule["Statement"]["ManagedRuleGroupStatement"]
        self.assertEqual((group["VendorName"], group["Name"]), ("AWS", "AWSManagedRulesCommonRuleSet"))
        self.assertEqual(rule["OverrideAction"], {"None": {}}, "the group's own blocks stand")
        overrides = {o["Name"]: o["ActionToUse"] for o in group["RuleActionOverrides"]}
        self.assertEqual(overrides, {"SizeRestrictions_BODY": {"Count": {}}})

    def test_every_rule_reports_metrics_and_samples(self):
        for rule in self.acl()["Rules"]:
            config = rule["VisibilityConfig"]
            self.assertTrue(config["CloudWatchMetricsEnabled"] and config["SampledRequestsEnabled"], rule["Name"])

    def test_the_distribution_uses_this_stacks_web_acl_in_us_east_1_and_the_edge_stacks_elsewhere(self):
        web_acl = RESOURCES["Distribution"]["Properties"]["DistributionConfig"]["WebACLId"]
        condition, here, elsewhere = web_acl["Fn::If"]
        self.assertEqual(condition, "CreatesEdgeWebAcl")
        self.assertEqual(here, {"Fn::GetAtt": ["EdgeWebAcl", "Arn"]})
        self.assertEqual(elsewhere["Fn::If"][0], "HasWebAclArn")
        self.assertEqual(elsewhere["Fn::If"][1], {"Ref": "WebAclArn"})
        self.assertEqual(RESOURCES["EdgeWebAcl"]["Condition"], "CreatesEdgeWebAcl")
        creates = TEMPLATE["Conditions"]["CreatesEdgeWebAcl"]["Fn::And"]
        self.assertIn({"Fn::Equals": [{"Ref": "AWS::Region"}, "us-east-1"]}, creates)


class OnlyThroughCloudFront(unittest.TestCase):
    def test_the_http_apis_own_address_is_switched_off(self):
        self.assertIs(RESOURCES["HttpApi"]["Properties"]["DisableExecuteApiEndpoint"], True)

    def test_cloudfront_still_sends_the_origin_secret(self):
        origins = RESOURCES["Distribution"]["Properties"]["DistributionConfig"]["Origins"]
        api = next(o for o in origins if o["Id"] == "api")
        headers = {h["HeaderName"] for h in api["OriginCustomHeaders"]}
        self.assertIn("X-Origin-Verify", headers)


class MailBudget(unittest.TestCase):
    def test_every_function_reads_the_budget_and_the_alarm_fires_at_80_per_cent(self):
        env = TEMPLATE["Globals"]["Function"]["Environment"]["Variables"]
        self.assertEqual(env["MAIL_DAILY_BUDGET"], {"Ref": "MailDailyBudget"})
        self.assertEqual(env["MAIL_DAILY_BUDGET_PER_ADDRESS"], {"Ref": "MailDailyBudgetPerAddress"})
        alarm = RESOURCES["MailBudgetAlarm"]["Properties"]
        metrics = {m["Id"]: m for m in alarm["Metrics"]}
        self.assertEqual(metrics["mails"]["MetricStat"]["Metric"]["MetricName"], "MailsToday")
        self.assertEqual(metrics["spent"]["Expression"], {"Fn::Sub": "100 * mails / ${MailDailyBudget}"})
        self.assertEqual(alarm["Threshold"], 80)
        self.assertEqual(alarm["AlarmActions"], [{"Ref": "AlarmTopic"}])


class EdgeStack(unittest.TestCase):
    def test_the_edge_stack_is_template_yamls_web_acl_named_for_the_shop(self):
        edge = deploy.edge_template(TEMPLATE, stage())
        self.assertEqual(list(edge["Resources"]), ["EdgeWebAcl"])
        acl = edge["Resources"]["EdgeWebAcl"]
        self.assertNotIn("Condition", acl, "the edge stack always makes it")
        self.assertEqual(acl["Properties"]["Rules"], RESOURCES["EdgeWebAcl"]["Properties"]["Rules"])
        self.assertEqual(acl["Properties"]["Name"], "drinks-shop-dev-edge")
        self.assertEqual(edge["Parameters"]["EdgeRateLimit"], TEMPLATE["Parameters"]["EdgeRateLimit"])
        self.assertEqual(edge["Outputs"]["WebAclArn"]["Value"], {"Fn::GetAtt": ["EdgeWebAcl", "Arn"]})
        self.assertIn("WebACL", RESOURCES["EdgeWebAcl"]["Type"], "the shop's template is untouched")
        self.assertIn("Condition", RESOURCES["EdgeWebAcl"])

    def test_a_stack_outside_us_east_1_without_the_edge_stacks_arn_is_stopped_before_deploying(self):
        found = deploy.static_problems(stage())
        self.assertEqual(len(found), 1, found)
        self.assertIn("make edge STAGE=dev", found[0])
        arn = "arn:aws:wafv2:us-east-1:123456789012:global/webacl/drinks-shop-dev-edge/abc"
        self.assertEqual(deploy.static_problems(stage(WebAclArn=arn)), [])
        self.assertEqual(deploy.static_problems(stage(region="us-east-1")), [])

    def test_a_stack_with_the_web_acl_switched_off_needs_no_edge_stack(self):
        self.assertEqual(deploy.static_problems(stage(EdgeWaf="off")), [])
        self.assertEqual(TEMPLATE["Parameters"]["EdgeWaf"]["Default"], "on")
        self.assertIn({"Fn::Condition": "WantsEdgeWaf"}, TEMPLATE["Conditions"]["CreatesEdgeWebAcl"]["Fn::And"])


if __name__ == "__main__":
    unittest.main()
