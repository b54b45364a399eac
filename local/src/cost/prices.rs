//! The price table the cost model uses, and what template.yaml says the stack pays for whether or not
//! anyone visits (alarms, secrets, the edge's web ACL, log groups, tables with point-in-time recovery) and
//! each function's memory setting.
//!
//! Prices: AWS's public price pages for EU (London) eu-west-2, on-demand, no free tier counted, as read for
//! this table on 2026-12-02 (the machine that wrote it had no web access: the figures are the published
//! ones as the author knew them, to be re-checked against the pages named here on that date before anyone
//! quotes them). CloudFront is priced for viewers in Europe, AWS WAF as a global (CloudFront) web ACL.
//! Sources: aws.amazon.com/lambda/pricing, /dynamodb/pricing/on-demand, /api-gateway/pricing,
//! /cloudfront/pricing, /s3/pricing, /sqs/pricing, /ses/pricing, /secrets-manager/pricing,
//! /cloudwatch/pricing, /waf/pricing, /xray/pricing.

use serde_yaml::Value;

/// When the table was read, and when it is to be checked again.
pub const PRICES_AS_OF: &str = "2026-12-02";
/// US dollars to pounds: the rate assumed on `PRICES_AS_OF` (not looked up live; re-check).
pub const GBP_PER_USD: f64 = 0.79;

/// US dollars per unit.
pub struct Prices {
    pub lambda_request: f64,
    /// arm64, per GB-second of duration.
    pub lambda_gb_second: f64,
    pub http_api_request: f64,
    /// On-demand, after the November 2024 halving (London was $1.4846 and $0.2969 a million before).
    pub dynamodb_write_unit: f64,
    pub dynamodb_read_unit: f64,
    pub dynamodb_gb_month: f64,
    pub dynamodb_pitr_gb_month: f64,
    pub cloudfront_https_request: f64,
    pub cloudfront_gb_out: f64,
    pub cloudfront_function: f64,
    pub s3_put_request: f64,
    pub s3_get_request: f64,
    pub s3_gb_month: f64,
    pub sqs_request: f64,
    pub ses_mail: f64,
    pub secret_month: f64,
    pub secrets_call: f64,
    /// Parameter Store standard parameters and their standard-throughput reads cost nothing.
    pub ssm_call: f64,
    pub alarm_month: f64,
    pub waf_acl_month: f64,
    pub waf_rule_month: f64,
    pub waf_request: f64,
    pub logs_gb_ingested: f64,
    pub logs_gb_month: f64,
    /// Tracing: Active records one trace per request.
    pub xray_trace: f64,
}

pub const LONDON: Prices = Prices {
    lambda_request: 0.20 / 1e6,
    lambda_gb_second: 0.000_013_333_4,
    http_api_request: 1.11 / 1e6,
    dynamodb_write_unit: 0.7423 / 1e6,
    dynamodb_read_unit: 0.1485 / 1e6,
    dynamodb_gb_month: 0.2970,
    dynamodb_pitr_gb_month: 0.2376,
    cloudfront_https_request: 0.0120 / 10_000.0,
    cloudfront_gb_out: 0.085,
    cloudfront_function: 0.10 / 1e6,
    s3_put_request: 0.0053 / 1_000.0,
    s3_get_request: 0.000_42 / 1_000.0,
    s3_gb_month: 0.024,
    sqs_request: 0.40 / 1e6,
    ses_mail: 0.10 / 1_000.0,
    secret_month: 0.40,
    secrets_call: 0.05 / 10_000.0,
    ssm_call: 0.0,
    alarm_month: 0.10,
    waf_acl_month: 5.00,
    waf_rule_month: 1.00,
    waf_request: 0.60 / 1e6,
    logs_gb_ingested: 0.5985,
    logs_gb_month: 0.0315,
    xray_trace: 5.00 / 1e6,
};

/// What the template declares that is paid for by the month.
#[derive(Debug, Clone, Default)]
pub struct Standing {
    pub alarms: usize,
    pub secrets: usize,
    pub log_groups: usize,
    pub tables: usize,
    pub waf_rules: usize,
    /// Queues a function is fed from (an SQS event source): Lambda polls them whether or not mail waits.
    pub polled_queues: usize,
    /// Scheduled runs a month (the orders expiry and the mail sweep, each `rate(5 minutes)`).
    pub scheduled_runs: f64,
    /// Each function's logical id and its `MemorySize` in MB (its own, else the Globals').
    pub memory: Vec<(String, u32)>,
}

impl Standing {
    pub fn from_template(text: &str) -> Result<Self, String> {
        let doc: Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
        let global_memory = doc["Globals"]["Function"]["MemorySize"]
            .as_u64()
            .unwrap_or(128) as u32;
        let resources = doc["Resources"]
            .as_mapping()
            .ok_or("template.yaml has no Resources")?;
        let mut standing = Standing::default();
        let mut secrets = std::collections::BTreeSet::new();
        for (id, resource) in resources {
            let id = id.as_str().unwrap_or_default();
            match resource["Type"].as_str().unwrap_or_default() {
                "AWS::CloudWatch::Alarm" => standing.alarms += 1,
                "AWS::Logs::LogGroup" => standing.log_groups += 1,
                "AWS::DynamoDB::Table" => standing.tables += 1,
                "AWS::WAFv2::WebACL" => {
                    standing.waf_rules = resource["Properties"]["Rules"]
                        .as_sequence()
                        .map_or(0, Vec::len)
                }
                "AWS::Serverless::Function" => {
                    let props = &resource["Properties"];
                    standing.polled_queues += props["Events"]
                        .as_mapping()
                        .into_iter()
                        .flatten()
                        .filter(|(_, event)| event["Type"].as_str() == Some("SQS"))
                        .count();
                    standing.scheduled_runs += props["Events"]
                        .as_mapping()
                        .into_iter()
                        .flatten()
                        .filter_map(|(_, event)| {
                            let p = &event["Properties"];
                            p["Schedule"].as_str().or(p["ScheduleExpression"].as_str())
                        })
                        .map(runs_a_month)
                        .sum::<f64>();
                    let memory = props["MemorySize"]
                        .as_u64()
                        .map_or(global_memory, |m| m as u32);
                    standing.memory.push((id.to_owned(), memory));
                    for (name, value) in props["Environment"]["Variables"]
                        .as_mapping()
                        .into_iter()
                        .flatten()
                    {
                        if name.as_str().is_some_and(|n| n.ends_with("_SECRET_ID")) {
                            secrets.insert(format!("{value:?}"));
                        }
                    }
                }
                _ => {}
            }
        }
        // The origin header's secret is named in Globals, for every function.
        for (name, value) in doc["Globals"]["Function"]["Environment"]["Variables"]
            .as_mapping()
            .into_iter()
            .flatten()
        {
            if name.as_str().is_some_and(|n| n.ends_with("_SECRET_ID")) {
                secrets.insert(format!("{value:?}"));
            }
        }
        standing.secrets = secrets.len();
        Ok(standing)
    }
}

/// How often `rate(N minutes)` (or hours, days) runs in a 30-day month; a `cron(...)` counts as hourly.
fn runs_a_month(expression: &str) -> f64 {
    let minutes = 30.0 * 24.0 * 60.0;
    let inner = expression.trim_start_matches("rate(").trim_end_matches(')');
    let mut words = inner.split_whitespace();
    match (
        words.next().and_then(|n| n.parse::<f64>().ok()),
        words.next(),
    ) {
        (Some(n), Some(unit)) if n > 0.0 && unit.starts_with("minute") => minutes / n,
        (Some(n), Some(unit)) if n > 0.0 && unit.starts_with("hour") => minutes / 60.0 / n,
        (Some(n), Some(unit)) if n > 0.0 && unit.starts_with("day") => 30.0 / n,
        _ => minutes / 60.0,
    }
}

/// Lambda's memory settings go in 1 MB steps; the recommendation keeps to 128 MB ones.
pub const MEMORY_STEP_MB: u32 = 128;
/// What the runtime, the binary and its SDK clients hold before a handler allocates (a Rust `provided.al2023`
/// function reports about 20-30 MB "Max Memory Used" idle).
pub const RUNTIME_BASE_MB: f64 = 32.0;

/// The smallest setting in 128 MB steps that holds twice the handler's peak heap over the runtime's base.
/// The shop's functions wait on DynamoDB, Stripe and SES for nearly all of their time, and more memory
/// (more CPU) does not shorten a wait: the smallest setting that fits is the cheapest at the same latency.
pub fn recommended_memory_mb(peak_heap_bytes: u64) -> u32 {
    let needed = RUNTIME_BASE_MB + 2.0 * peak_heap_bytes as f64 / (1024.0 * 1024.0);
    let steps = (needed / f64::from(MEMORY_STEP_MB)).ceil().max(1.0) as u32;
    steps * MEMORY_STEP_MB
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_heap_fits_the_smallest_setting_and_a_large_one_takes_more_steps() {
        assert_eq!(recommended_memory_mb(4 * 1024 * 1024), 128);
        // 32 + 2 × 60 = 152 MB: two steps.
        assert_eq!(recommended_memory_mb(60 * 1024 * 1024), 256);
    }

    #[test]
    fn the_template_names_its_alarms_secrets_and_memory() {
        let template = r#"
Globals:
  Function:
    MemorySize: 256
    Environment:
      Variables:
        ORIGIN_VERIFY_SECRET_ID: !Sub "shop/${Stage}/origin-verify"
Resources:
  A:
    Type: AWS::Serverless::Function
    Properties:
      MemorySize: 128
      Environment:
        Variables:
          KEY_SECRET_ID: !Sub "shop/${Stage}/a/key"
  B:
    Type: AWS::Serverless::Function
    Properties:
      Environment:
        Variables:
          KEY_SECRET_ID: !Sub "shop/${Stage}/a/key"
  Errors:
    Type: AWS::CloudWatch::Alarm
"#;
        let standing = Standing::from_template(template).unwrap();
        assert_eq!(standing.alarms, 1);
        assert_eq!(runs_a_month("rate(5 minutes)"), 8_640.0);
        assert_eq!(standing.secrets, 2);
        assert_eq!(
            standing.memory,
            vec![("A".to_owned(), 128), ("B".to_owned(), 256)]
        );
    }
}
