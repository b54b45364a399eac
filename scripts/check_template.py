"""Operations rules for template.yaml that cfn-lint and `sam validate` do not know, checked generically so a
function, table or queue added later is held to them too:

- every AWS::Serverless::Function logs to its own AWS::Logs::LogGroup (LoggingConfig) that has a retention,
  has an Errors and a Throttles alarm, is traced, and builds from its own crate (CodeUri), never the root;
- every AWS::Logs::LogGroup has a retention; every alarm notifies someone;
- every DynamoDB table has a throttle alarm; every dead-letter queue an alarm on its first message;
- the HTTP API writes access logs and has a 5xx alarm.

`python3 scripts/check_template.py [template.yaml]` prints the problems and exits 1 if there are any.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


class _Loader(yaml.SafeLoader):
    """Reads CloudFormation's short forms (!Ref X, !GetAtt A.B, !Sub ...) as their long forms."""


def _tag(loader: _Loader, suffix: str, node: yaml.Node):
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if suffix == "Ref":
        return {"Ref": value}
    if suffix == "GetAtt" and isinstance(value, str):
        value = value.split(".", 1)
    return {f"Fn::{suffix}": value}


_Loader.add_multi_constructor("!", _tag)


def load(path: Path) -> dict:
    return yaml.load(path.read_text(), Loader=_Loader)


def _ref(value) -> str | None:
    return value.get("Ref") if isinstance(value, dict) else None


def _getatt(value) -> tuple[str, str] | None:
    if isinstance(value, dict) and "Fn::GetAtt" in value:
        target = value["Fn::GetAtt"]
        return (target[0], target[1]) if isinstance(target, list) and len(target) == 2 else None
    return None


def _metrics(alarm: dict):
    """(namespace, metric name, dimensions) of each metric an alarm watches, plain or in metric math."""
    props = alarm.get("Properties", {})
    if "MetricName" in props:
        yield props.get("Namespace"), props["MetricName"], props.get("Dimensions", [])
    for query in props.get("Metrics", []) or []:
        metric = (query.get("MetricStat") or {}).get("Metric")
        if metric:
            yield metric.get("Namespace"), metric.get("MetricName"), metric.get("Dimensions", [])


def _watches(alarms: dict, namespace: str, metric_names: set[str], dimension: str, matches) -> bool:
    for alarm in alarms.values():
        for ns, name, dims in _metrics(alarm):
            if ns == namespace and name in metric_names:
                if any(d.get("Name") == dimension and matches(d.get("Value")) for d in dims):
                    return True
    return False


def problems(template: dict, root: Path = ROOT) -> list[str]:
    resources: dict = template.get("Resources", {})
    of_type = lambda kind: {k: v for k, v in resources.items() if v.get("Type") == kind}
    alarms = of_type("AWS::CloudWatch::Alarm")
    log_groups = of_type("AWS::Logs::LogGroup")
    found: list[str] = []

    for name, group in log_groups.items():
        if "RetentionInDays" not in group.get("Properties", {}):
            found.append(f"{name}: log group without RetentionInDays (logs would be kept forever)")
    for name, alarm in alarms.items():
        if not alarm.get("Properties", {}).get("AlarmActions"):
            found.append(f"{name}: alarm without AlarmActions (nobody would hear of it)")

    globals_fn = (template.get("Globals") or {}).get("Function") or {}
    for name, function in of_type("AWS::Serverless::Function").items():
        props = function.get("Properties", {})
        group = _ref((props.get("LoggingConfig") or {}).get("LogGroup"))
        if group not in log_groups:
            found.append(f"{name}: LoggingConfig.LogGroup must be !Ref to its own AWS::Logs::LogGroup")
        is_fn = lambda value, name=name: _ref(value) == name
        for metric in ("Errors", "Throttles"):
            if not _watches(alarms, "AWS/Lambda", {metric}, "FunctionName", is_fn):
                found.append(f"{name}: no alarm on AWS/Lambda {metric} for FunctionName !Ref {name}")
        if (props.get("Tracing") or globals_fn.get("Tracing")) != "Active":
            found.append(f"{name}: Tracing is not Active")
        code_uri = props.get("CodeUri", globals_fn.get("CodeUri"))
        if function.get("Metadata", {}).get("BuildMethod") == "rust-cargolambda":
            binary = function["Metadata"].get("BuildProperties", {}).get("Binary", "")
            crate = root / str(code_uri)
            manifest = crate / "Cargo.toml"
            if code_uri in (None, ".", "./") or not manifest.is_file():
                found.append(f"{name}: CodeUri {code_uri!r} must be the function's own crate (a front-end change would rebuild it)")
            elif not (f'name = "{binary}"' in manifest.read_text() or (crate / "src" / "bin" / f"{binary}.rs").is_file()):
                found.append(f"{name}: CodeUri {code_uri} does not build the binary {binary!r}")

    for name in of_type("AWS::DynamoDB::Table"):
        if not _watches(alarms, "AWS/DynamoDB", {"ReadThrottleEvents", "WriteThrottleEvents", "ThrottledRequests"},
                        "TableName", lambda value, name=name: _ref(value) == name):
            found.append(f"{name}: no throttle alarm (AWS/DynamoDB Read/WriteThrottleEvents for TableName !Ref {name})")

    for name in _dead_letter_queues(resources):
        if not _watches(alarms, "AWS/SQS", {"ApproximateNumberOfMessagesVisible"}, "QueueName",
                        lambda value, name=name: _getatt(value) == (name, "QueueName")):
            found.append(f"{name}: dead-letter queue without an alarm on ApproximateNumberOfMessagesVisible")

    for name, api in of_type("AWS::Serverless::HttpApi").items():
        destination = _getatt((api.get("Properties", {}).get("AccessLogSettings") or {}).get("DestinationArn"))
        if not destination or destination[0] not in log_groups:
            found.append(f"{name}: AccessLogSettings.DestinationArn must be !GetAtt of a log group of this template")
        if not _watches(alarms, "AWS/ApiGateway", {"5xx", "5XXError"}, "ApiId", lambda value, name=name: _ref(value) == name):
            found.append(f"{name}: no alarm on AWS/ApiGateway 5xx for ApiId !Ref {name}")
    return found


def _dead_letter_queues(resources: dict) -> set[str]:
    """Queues something sends its failures to: another queue's redrive target, or a function's DLQ."""
    queues = set()

    def visit(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in ("deadLetterTargetArn", "TargetArn", "Destination") or key == "DeadLetterQueue":
                    target = _getatt(inner) or _getatt((inner or {}).get("TargetArn") if isinstance(inner, dict) else None)
                    if target and resources.get(target[0], {}).get("Type") == "AWS::SQS::Queue":
                        queues.add(target[0])
                visit(inner)
        elif isinstance(value, list):
            for inner in value:
                visit(inner)

    visit(resources)
    return queues


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else ROOT / "template.yaml"
    found = problems(load(path))
    for problem in found:
        print(f"{path.name}: {problem}")
    if not found:
        print(f"{path.name}: every function has its log group, retention, alarms, tracing and own CodeUri")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
