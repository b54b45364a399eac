"""template.yaml meets the operations rules (scripts/check_template.py), and the checker catches a function,
table or dead-letter queue that would break them, as another issue's additions might."""

import copy
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import check_template  # noqa: E402

TEMPLATE = check_template.load(check_template.ROOT / "template.yaml")


def mutated(change):
    template = copy.deepcopy(TEMPLATE)
    change(template["Resources"])
    return check_template.problems(template)


class TemplateOperations(unittest.TestCase):
    def test_the_template_meets_every_rule(self):
        self.assertEqual(check_template.problems(TEMPLATE), [])

    def test_every_function_of_the_template_is_checked(self):
        functions = [k for k, v in TEMPLATE["Resources"].items() if v["Type"] == "AWS::Serverless::Function"]
        self.assertGreaterEqual(len(functions), 8)
        for name in functions:
            found = mutated(lambda r, name=name: r[name]["Properties"].pop("LoggingConfig"))
            self.assertTrue(any(p.startswith(f"{name}: LoggingConfig") for p in found), found)

    def test_a_new_function_without_log_group_or_alarms_is_reported(self):
        def add(resources):
            resources["ReportsFunction"] = copy.deepcopy(resources["OrdersFunction"])
            resources["ReportsFunction"]["Properties"].pop("LoggingConfig")

        found = mutated(add)
        self.assertIn("ReportsFunction: LoggingConfig.LogGroup must be !Ref to its own AWS::Logs::LogGroup", found)
        self.assertIn("ReportsFunction: no alarm on AWS/Lambda Errors for FunctionName !Ref ReportsFunction", found)
        self.assertIn("ReportsFunction: no alarm on AWS/Lambda Throttles for FunctionName !Ref ReportsFunction", found)

    def test_a_log_group_without_retention_is_reported(self):
        found = mutated(lambda r: r["CatalogLogGroup"]["Properties"].pop("RetentionInDays"))
        self.assertEqual(found, ["CatalogLogGroup: log group without RetentionInDays (logs would be kept forever)"])

    def test_a_function_built_from_the_repository_root_is_reported(self):
        found = mutated(lambda r: r["ReviewsFunction"]["Properties"].__setitem__("CodeUri", "."))
        self.assertEqual(len(found), 1)
        self.assertIn("ReviewsFunction: CodeUri '.'", found[0])

    def test_a_function_whose_crate_lacks_its_binary_is_reported(self):
        found = mutated(lambda r: r["ReviewsFunction"]["Properties"].__setitem__("CodeUri", "functions/catalog"))
        self.assertEqual(found, ["ReviewsFunction: CodeUri functions/catalog does not build the binary 'reviews'"])

    def test_a_table_without_throttle_alarm_is_reported(self):
        found = mutated(lambda r: r.pop("OrdersTableThrottlesAlarm"))
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("OrdersTable: no throttle alarm"), found)

    def test_a_dead_letter_queue_needs_an_alarm_on_its_first_message(self):
        def add_queues(resources):
            resources["ReportsDeadLetterQueue"] = {"Type": "AWS::SQS::Queue", "Properties": {}}
            resources["ReportsQueue"] = {
                "Type": "AWS::SQS::Queue",
                "Properties": {
                    "RedrivePolicy": {
                        "deadLetterTargetArn": {"Fn::GetAtt": ["ReportsDeadLetterQueue", "Arn"]},
                        "maxReceiveCount": 5,
                    }
                },
            }

        self.assertEqual(
            mutated(add_queues),
            ["ReportsDeadLetterQueue: dead-letter queue without an alarm on ApproximateNumberOfMessagesVisible"],
        )

        def add_queues_and_alarm(resources):
            add_queues(resources)
            resources["ReportsDeadLetterAlarm"] = {
                "Type": "AWS::CloudWatch::Alarm",
                "Properties": {
                    "Namespace": "AWS/SQS",
                    "MetricName": "ApproximateNumberOfMessagesVisible",
                    "Dimensions": [{"Name": "QueueName", "Value": {"Fn::GetAtt": ["ReportsDeadLetterQueue", "QueueName"]}}],
                    "AlarmActions": [{"Ref": "AlarmTopic"}],
                },
            }

        self.assertEqual(mutated(add_queues_and_alarm), [])

    def test_an_alarm_that_notifies_nobody_is_reported(self):
        found = mutated(lambda r: r["Api5xxRateAlarm"]["Properties"].pop("AlarmActions"))
        self.assertEqual(found, ["Api5xxRateAlarm: alarm without AlarmActions (nobody would hear of it)"])

    def test_the_api_needs_access_logs(self):
        found = mutated(lambda r: r["HttpApi"]["Properties"].pop("AccessLogSettings"))
        self.assertEqual(len(found), 1)
        self.assertTrue(found[0].startswith("HttpApi: AccessLogSettings"), found)


if __name__ == "__main__":
    unittest.main()
