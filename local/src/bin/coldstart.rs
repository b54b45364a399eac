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
//!
//! `COLDSTART_BASELINE=<hello binary>` starts that baseline cold beside each of the function's starts (in
//! turns just before and just after) and judges the function against its median from the same runs: the machine's state then weighs on
//! both alike, which one baseline figure taken minutes earlier did not. `COLDSTART_HELLO_MS` passes a
//! baseline figure instead.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue};
use axum::routing::{get, post};
use axum::Router;
use shared::config::Lookup;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};
use testkit::emulator::{Emulator, LocalNames};
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

/// One cold start's figures.
struct ColdStart {
    /// Process start to its first poll for an event.
    init_ms: f64,
    /// The same without the time the emulator spent answering (on AWS, part of the round trip).
    own_init_ms: f64,
    /// Process start to its first AWS request, and its last AWS answer to the first poll: the init's own
    /// work before and after its round trips (none when it made no AWS call).
    split_ms: Option<(f64, f64)>,
    /// Event handed over to response posted.
    invoke_ms: f64,
    /// The response the function posted.
    body: String,
}

/// The baseline's init in run `run`: the hello binary, no settings, the same event.
async fn start_baseline(
    hello: &std::path::Path,
    event: &str,
    proxy: &testkit::emulator::LatencyProxy,
    run: usize,
) -> Result<f64, String> {
    let start = start_cold(hello, &Default::default(), "-", event.to_owned(), proxy).await;
    Ok(start
        .map_err(|error| format!("run {run} of the baseline: {error}"))?
        .init_ms)
}

/// Starts `binary` with `vars` against a fresh stand-in of the runtime API, hands it `event` and answers
/// its figures once it has responded; the process is killed then (a Lambda would be frozen).
async fn start_cold(
    binary: &std::path::Path,
    vars: &std::collections::BTreeMap<String, String>,
    logical_id: &str,
    event: String,
    proxy: &testkit::emulator::LatencyProxy,
) -> Result<ColdStart, String> {
    let (report, mut seen) = mpsc::unbounded_channel();
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let started = Instant::now();
    let mut child = tokio::process::Command::new(binary)
        .env_clear()
        .envs(vars)
        .env("AWS_LAMBDA_RUNTIME_API", address.to_string())
        .env("AWS_LAMBDA_FUNCTION_NAME", logical_id)
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/bench")
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "bench")
        .env("AWS_REGION", testkit::emulator::REGION)
        .env("AWS_ACCESS_KEY_ID", "bench")
        .env("AWS_SECRET_ACCESS_KEY", "bench")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env("AWS_ENDPOINT_URL", &proxy.endpoint)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("{} could not start: {e}", binary.display()))?;

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
        Ok(Err(error)) => return Err(format!("the function reported an error: {error}")),
        Err(_) => return Err("no response within 20 s".to_owned()),
    };
    let polled = polled.ok_or("no poll before the response")?;
    let ms = |from: Instant, to: Instant| (to - from).as_secs_f64() * 1000.0;
    let init_ms = ms(started, polled);
    let split_ms = proxy
        .first_request_and_last_answer(started, polled)
        .map(|(first, last)| (ms(started, first), ms(last, polled)));
    Ok(ColdStart {
        init_ms,
        split_ms,
        own_init_ms: init_ms - proxy.emulator_time(started, polled).as_secs_f64() * 1000.0,
        invoke_ms: ms(polled, responded),
        body,
    })
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
    let stripe = testkit::emulator::LocalStripe::start(None)?;
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
        testkit::emulator::LatencyProxy::start(&emulator.endpoint, Duration::from_millis(latency))
            .await?;

    // The baseline started cold beside each of the function's starts, so both meet the machine in the same
    // state (a loaded machine slows both alike).
    let baseline_binary = std::env::var_os("COLDSTART_BASELINE").map(PathBuf::from);

    let mut inits = Vec::new();
    let mut own_inits = Vec::new();
    let mut invokes = Vec::new();
    let (mut before_calls, mut after_calls) = (Vec::new(), Vec::new());
    let mut baseline_inits = Vec::new();
    for run in 0..runs {
        // In turns first and second, so neither always follows the other's exit.
        let baseline_first = run % 2 == 0;
        if baseline_first {
            if let Some(hello) = &baseline_binary {
                baseline_inits.push(start_baseline(hello, &event, &proxy, run).await?);
            }
        }
        // Placeholders in event fixtures; a fresh address per run keeps clear of the login rate limit.
        let personal = event.replace("EMAIL", &format!("bench{run}@example.com"));
        let start = start_cold(&binary, &vars, logical_id, personal, &proxy)
            .await
            .map_err(|error| format!("run {run}: {error}"))?;
        let status = serde_json::from_str::<serde_json::Value>(&start.body)?["statusCode"]
            .as_u64()
            .unwrap_or(0);
        if status != expected {
            return Err(format!(
                "run {run}: the first invoke answered {status}: {}",
                start.body
            )
            .into());
        }
        inits.push(start.init_ms);
        own_inits.push(start.own_init_ms);
        invokes.push(start.invoke_ms);
        if let Some((before, after)) = start.split_ms {
            before_calls.push(before);
            after_calls.push(after);
        }
        if !baseline_first {
            if let Some(hello) = &baseline_binary {
                baseline_inits.push(start_baseline(hello, &event, &proxy, run).await?);
            }
        }
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
    if !before_calls.is_empty() {
        println!(
            "  start to the first AWS request median {:.2} ms, the last answer to the first poll median {:.2} ms",
            median(&mut before_calls),
            median(&mut after_calls),
        );
    }
    // The targets, against the baseline's figure from the same runs (or one the caller passes).
    let hello = if baseline_inits.is_empty() {
        std::env::var("COLDSTART_HELLO_MS")
            .ok()
            .and_then(|ms| ms.parse::<f64>().ok())
    } else {
        let hello = median(&mut baseline_inits);
        println!(
            "  hello (baseline) in the same runs, started beside each: init median {hello:.1} ms"
        );
        Some(hello)
    };
    if let Some(hello) = hello {
        let (limit, rule) = if latency == 0 {
            (2.0 * hello, "2x hello".to_owned())
        } else {
            (
                hello + latency as f64,
                format!("hello + one round trip of {latency} ms"),
            )
        };
        let verdict = if own <= limit { "meets" } else { "MISSES" };
        println!("  {verdict} the target: {own:.1} ms <= {limit:.1} ms ({rule})");
    }
    Ok(())
}
