//! Cold-start benchmark: runs a function's release binary against a small local stand-in of the Lambda
//! Runtime API and the AWS emulator, and reports the init time (process start to its first poll for an
//! event) and the first-invoke time (event handed over to response posted), over several cold starts.
//!
//! `coldstart <binary> <LogicalId> <event.json> [runs] [status]`
//!
//! `status` (default 200) is the answer the event must get: a public read of a record that does not exist
//! (404) is a fair first invoke too, since it makes the same round trip to the database. `LogicalId` `-`
//! runs a binary with no settings of the template's (the `hello` baseline).
//!
//! `COLDSTART_AWS_LATENCY_MS=20` makes every AWS call the function makes wait that long first (a
//! `LatencyProxy` between it and the emulator), so the figures show what a cold start pays for round trips
//! made one after another.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::routing::{get, post};
use axum::Router;
use shared::config::Lookup;
use shared::emulator::{Emulator, LocalNames};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Mutex};

#[derive(Debug)]
enum Seen {
    Poll(Instant),
    Response(Instant, String),
    Error(String),
}

#[derive(Clone)]
struct Runtime {
    event: Arc<String>,
    served: Arc<Mutex<bool>>,
    report: mpsc::UnboundedSender<Seen>,
}

async fn next_event(State(rt): State<Runtime>) -> (HeaderMap, String) {
    let _ = rt.report.send(Seen::Poll(Instant::now()));
    let mut served = rt.served.lock().await;
    if *served {
        drop(served);
        // The process is killed before this returns: a Lambda would be frozen here.
        tokio::time::sleep(Duration::from_secs(3600)).await;
        return (HeaderMap::new(), String::new());
    }
    *served = true;
    let mut headers = HeaderMap::new();
    let deadline = (std::time::SystemTime::now() + Duration::from_secs(10))
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    headers.insert(
        "lambda-runtime-aws-request-id",
        HeaderValue::from_static("bench-request"),
    );
    headers.insert(
        "lambda-runtime-deadline-ms",
        HeaderValue::from_str(&deadline.to_string()).unwrap(),
    );
    headers.insert(
        "lambda-runtime-invoked-function-arn",
        HeaderValue::from_static("arn:aws:lambda:eu-west-2:123456789012:function:bench"),
    );
    headers.insert(
        "lambda-runtime-trace-id",
        HeaderValue::from_static("Root=1-00000000-000000000000000000000000"),
    );
    (headers, rt.event.as_str().to_owned())
}

async fn post_response(
    State(rt): State<Runtime>,
    Path(_id): Path<String>,
    body: String,
) -> &'static str {
    let _ = rt.report.send(Seen::Response(Instant::now(), body));
    "{}"
}

async fn post_error(State(rt): State<Runtime>, body: String) -> &'static str {
    let _ = rt.report.send(Seen::Error(body));
    "{}"
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[values.len() / 2]
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values[((values.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, binary, logical_id, event_file, rest @ ..] = args.as_slice() else {
        eprintln!("usage: coldstart <binary> <LogicalId> <event.json> [runs] [status]");
        std::process::exit(2);
    };
    let runs: usize = rest.first().map(|r| r.parse()).transpose()?.unwrap_or(15);
    let expected: u64 = rest.get(1).map(|s| s.parse()).transpose()?.unwrap_or(200);
    let binary = PathBuf::from(binary);
    let event = std::fs::read_to_string(event_file)?;

    let emulator = Emulator::start()?;
    // The orders function's settings name a Stripe API; a fresh localstripe dies with this process.
    let stripe = shared::emulator::LocalStripe::start(None)?;
    let names = LocalNames::new("bench");
    let dist = std::env::temp_dir();
    let gateway = local::build(&emulator, &stripe, &names, dist, "http://127.0.0.1:3000").await?;
    let baseline = logical_id == "-";
    let vars = if baseline {
        Default::default()
    } else {
        gateway.env.vars(logical_id)
    };
    if vars.is_empty() && !baseline {
        return Err(format!("template.yaml declares no function {logical_id}").into());
    }
    // The function reads its secrets from the emulator at start-up, and serves only requests that carry the
    // origin header CloudFront would add.
    let mut parsed: serde_json::Value = serde_json::from_str(&event)?;
    if !baseline {
        let origin = gateway
            .env
            .lookup(logical_id)
            .get("ORIGIN_VERIFY")
            .ok_or("no ORIGIN_VERIFY secret")?;
        parsed["headers"][shared::edge::ORIGIN_VERIFY_HEADER] = origin.into();
        // And the viewer's address CloudFront adds (a request without it is refused in AWS).
        parsed["headers"][shared::edge::VIEWER_ADDRESS_HEADER] = "203.0.113.10:443".into();
    }
    let event = parsed.to_string();
    let latency: u64 = std::env::var("COLDSTART_AWS_LATENCY_MS")
        .ok()
        .map(|ms| ms.parse())
        .transpose()?
        .unwrap_or(0);
    let proxy =
        shared::emulator::LatencyProxy::start(&emulator.endpoint, Duration::from_millis(latency))
            .await?;

    let mut inits = Vec::new();
    let mut own_inits = Vec::new();
    let mut invokes = Vec::new();
    for run in 0..runs {
        let (report, mut seen) = mpsc::unbounded_channel();
        // Placeholders in event fixtures; a fresh address per run keeps clear of the login rate limit.
        let event = event.replace("EMAIL", &format!("bench{run}@example.com"));
        let runtime = Runtime {
            event: Arc::new(event),
            served: Arc::new(Mutex::new(false)),
            report,
        };
        let app = Router::new()
            .route("/2018-06-01/runtime/invocation/next", get(next_event))
            .route(
                "/2018-06-01/runtime/invocation/{id}/response",
                post(post_response),
            )
            .route(
                "/2018-06-01/runtime/invocation/{id}/error",
                post(post_error),
            )
            .route("/2018-06-01/runtime/init/error", post(post_error))
            .with_state(runtime);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let server = tokio::spawn(async move { axum::serve(listener, app).await });

        let started = Instant::now();
        let mut child = tokio::process::Command::new(&binary)
            .env_clear()
            .envs(&vars)
            .env("AWS_LAMBDA_RUNTIME_API", address.to_string())
            .env("AWS_LAMBDA_FUNCTION_NAME", logical_id)
            .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
            .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
            .env("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/bench")
            .env("AWS_LAMBDA_LOG_STREAM_NAME", "bench")
            .env("AWS_REGION", shared::emulator::REGION)
            .env("AWS_ACCESS_KEY_ID", "bench")
            .env("AWS_SECRET_ACCESS_KEY", "bench")
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env("AWS_ENDPOINT_URL", &proxy.endpoint)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()?;

        let mut polled = None;
        let outcome = tokio::time::timeout(Duration::from_secs(20), async {
            while let Some(event) = seen.recv().await {
                match event {
                    Seen::Poll(at) if polled.is_none() => polled = Some(at),
                    Seen::Poll(_) => {}
                    Seen::Response(at, body) => return Ok((at, body)),
                    Seen::Error(body) => return Err(body),
                }
            }
            Err("the stand-in runtime closed".to_owned())
        })
        .await;
        child.kill().await.ok();
        server.abort();
        let (responded, body) = match outcome {
            Ok(Ok(done)) => done,
            Ok(Err(error)) => {
                return Err(format!("run {run}: the function reported an error: {error}").into())
            }
            Err(_) => return Err(format!("run {run}: no response within 20 s").into()),
        };
        let polled = polled.ok_or("no poll before the response")?;
        let status = serde_json::from_str::<serde_json::Value>(&body)?["statusCode"]
            .as_u64()
            .unwrap_or(0);
        if status != expected {
            return Err(format!("run {run}: the first invoke answered {status}: {body}").into());
        }
        let init = (polled - started).as_secs_f64() * 1000.0;
        inits.push(init);
        own_inits.push(init - proxy.emulator_time(started, polled).as_secs_f64() * 1000.0);
        invokes.push((responded - polled).as_secs_f64() * 1000.0);
    }
    emulator.stop();
    let name = if baseline {
        "hello (baseline)"
    } else {
        logical_id
    };
    let own = median(&mut own_inits);
    println!(
        "{name}: init median {:.1} ms (p90 {:.1} ms), without the emulator's own time {own:.1} ms, first invoke median {:.1} ms (p90 {:.1} ms), {runs} cold starts, AWS latency {latency} ms",
        median(&mut inits.clone()),
        percentile(&mut inits, 0.9),
        median(&mut invokes.clone()),
        percentile(&mut invokes, 0.9),
    );
    // The targets, against the baseline's figure when the caller passes it (scripts/bench.sh does).
    if let Some(hello) = std::env::var("COLDSTART_HELLO_MS")
        .ok()
        .and_then(|ms| ms.parse::<f64>().ok())
    {
        let (limit, rule) = if latency == 0 {
            (3.0 * hello, "3x hello".to_owned())
        } else {
            (
                hello + 1.5 * latency as f64,
                format!("hello + 1.5 x {latency} ms"),
            )
        };
        let verdict = if own <= limit { "meets" } else { "MISSES" };
        println!("  {verdict} the target: {own:.1} ms <= {limit:.1} ms ({rule})");
    }
    Ok(())
}
