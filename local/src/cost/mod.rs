//! The cost model (`make bench-cost`): a scripted day through the local stack's real routers (visits,
//! checkouts with each card outcome, an admin session, a mailing), metered per request and per service,
//! priced with the dated table in `prices`, and printed as £ per 1,000 visits, per order, per 10,000 mails,
//! the monthly floor, and each function's duration, peak heap and the memory setting that fits it.

pub mod meter;
pub mod prices;
pub mod units;

use axum::body::Body;
use http::{header, Method, Request, StatusCode};
use http_body_util::BodyExt;
use meter::{Meter, Tally};
use prices::{recommended_memory_mb, Prices, Standing, GBP_PER_USD, LONDON, PRICES_AS_OF};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};
use testkit::emulator::{BoxError, Emulator, LocalStripe, Template};
use tower::ServiceExt;

/// What the bench's global allocator answers: `reset` makes the current heap the new peak and answers it;
/// `peak` answers the highest heap since.
#[derive(Clone, Copy)]
pub struct HeapProbe {
    pub reset: fn() -> u64,
    pub peak: fn() -> u64,
}

/// How big the day is.
#[derive(Debug, Clone)]
pub struct Day {
    pub visits: usize,
    pub subscribers: usize,
}

/// Assumptions the month's figures rest on, printed beside them.
pub const VISITS_PER_ORDER: f64 = 30.0;
/// Log bytes a Lambda invocation writes (START, END, REPORT and a JSON line or two) plus the API access line.
pub const LOG_BYTES_PER_INVOCATION: f64 = 1_200.0;
/// A cold start's billed init (make bench measures the functions' init locally in tens of ms).
pub const INIT_SECONDS: f64 = 0.060;
/// What the tables and images hold with no traffic, for their storage and point-in-time backups.
pub const DATA_GB: f64 = 0.1;
pub const IMAGES_GB: f64 = 1.0;
const MINUTES_A_MONTH: f64 = 30.0 * 24.0 * 60.0;

/// One API request as Lambda would bill it.
#[derive(Debug, Clone)]
struct Invocation {
    function: String,
    duration: Duration,
    peak_heap: u64,
}

/// Everything measured under one phase of the day (`visit`, `order-paid`, ...), over all its runs.
#[derive(Debug, Clone, Default)]
struct Phase {
    runs: usize,
    api_requests: u64,
    /// Page and asset requests CloudFront answers from its cache or S3 (no Lambda).
    page_requests: u64,
    bytes_out: u64,
    /// Functions started cold: at low traffic, each function a run touches.
    cold_starts: BTreeMap<String, u64>,
    invocations: Vec<Invocation>,
    sender_seconds: f64,
    sender_peak_heap: u64,
}

pub struct Bench<'a> {
    router: axum::Router,
    meter: Meter,
    heap: HeapProbe,
    stripe: &'a LocalStripe,
    emulator: &'a Emulator,
    queue_url: String,
    memory: HashMap<String, u32>,
    phases: BTreeMap<String, Phase>,
    current: Option<String>,
    touched: BTreeSet<String>,
}

/// The meter for a stack built from `template`: it knows each table's index keys, under local names.
pub fn meter_for(template: &Template, names: &testkit::emulator::LocalNames) -> Meter {
    let indexes = template
        .tables()
        .into_iter()
        .map(|(logical_id, props)| {
            let keys = props
                .get("GlobalSecondaryIndexes")
                .and_then(serde_yaml::Value::as_sequence)
                .into_iter()
                .flatten()
                .filter_map(|index| {
                    index
                        .get("KeySchema")?
                        .as_sequence()?
                        .iter()
                        .find(|k| k.get("KeyType").and_then(|t| t.as_str()) == Some("HASH"))?
                        .get("AttributeName")?
                        .as_str()
                        .map(str::to_owned)
                })
                .collect();
            (names.table(&logical_id), keys)
        })
        .collect();
    Meter::new(indexes)
}

impl<'a> Bench<'a> {
    pub fn new(
        gateway: &crate::Gateway,
        meter: Meter,
        heap: HeapProbe,
        stripe: &'a LocalStripe,
        emulator: &'a Emulator,
        standing: &Standing,
    ) -> Self {
        Bench {
            router: gateway.router.clone(),
            meter,
            heap,
            stripe,
            emulator,
            queue_url: gateway.mail.queue_url.clone(),
            memory: standing.memory.iter().cloned().collect(),
            phases: BTreeMap::new(),
            current: None,
            touched: BTreeSet::new(),
        }
    }

    fn begin(&mut self, phase: &str) {
        self.current = Some(phase.to_owned());
        self.touched.clear();
        self.meter.set_phase(Some(phase));
        self.phases.entry(phase.to_owned()).or_default().runs += 1;
    }

    fn end(&mut self) {
        self.meter.set_phase(None);
        if let Some(phase) = self.current.take() {
            let phase = self.phases.entry(phase).or_default();
            for function in std::mem::take(&mut self.touched) {
                *phase.cold_starts.entry(function).or_default() += 1;
            }
        }
    }

    fn phase(&mut self) -> &mut Phase {
        let name = self.current.clone().unwrap_or_else(|| "setup".to_owned());
        self.phases.entry(name).or_default()
    }

    async fn send(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Vec<u8>) {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::ACCEPT_ENCODING, "gzip");
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let body = match body {
            Some(body) => {
                request = request.header(header::CONTENT_TYPE, "application/json");
                Body::from(body.to_string())
            }
            None => Body::empty(),
        };
        let response = self
            .router
            .clone()
            .oneshot(request.body(body).expect("request"))
            .await
            .expect("router answers");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes().to_vec())
            .unwrap_or_default();
        (status, bytes)
    }

    /// One API request to `function`'s routes: a CloudFront request, an API Gateway request and an
    /// invocation, timed and its heap measured.
    pub async fn api(
        &mut self,
        function: &str,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let base = (self.heap.reset)();
        let started = Instant::now();
        let (status, bytes) = self.send(method, uri, token, body).await;
        let duration = started.elapsed();
        let peak_heap = (self.heap.peak)().saturating_sub(base);
        self.touched.insert(function.to_owned());
        let phase = self.phase();
        phase.api_requests += 1;
        phase.bytes_out += bytes.len() as u64;
        phase.invocations.push(Invocation {
            function: function.to_owned(),
            duration,
            peak_heap,
        });
        (status, decode(&bytes))
    }

    /// A first visit's page: the HTML and every script and style it names, as CloudFront serves them.
    async fn page(&mut self, path: &str) -> Result<(), BoxError> {
        let (status, html) = self.send(Method::GET, path, None, None).await;
        if status != StatusCode::OK {
            return Err(format!("the storefront answered {status} for {path}: is frontend/dist built (make frontend)?").into());
        }
        let text = String::from_utf8_lossy(&gunzip(&html)).into_owned();
        let mut bytes = html.len() as u64;
        let mut requests = 1;
        for asset in assets_named(&text) {
            let (status, body) = self.send(Method::GET, &asset, None, None).await;
            if status == StatusCode::OK {
                bytes += body.len() as u64;
                requests += 1;
            }
        }
        let phase = self.phase();
        phase.page_requests += requests;
        phase.bytes_out += bytes;
        Ok(())
    }

    /// Waits until the mail queue is empty (the sender finished what the phase queued) and, for a mailing,
    /// until `mails` were sent; the sender's busy time is measured from its receives to its deletes.
    async fn drain(&mut self, mails: u64) -> Result<(), BoxError> {
        let sqs = shared::aws::sqs(&self.emulator.sdk_config().await);
        let phase_name = self.current.clone().unwrap_or_default();
        let base = (self.heap.reset)();
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut quiet = 0;
        while quiet < 4 {
            if Instant::now() > deadline {
                return Err(format!("the mail queue did not drain in {phase_name}").into());
            }
            tokio::time::sleep(Duration::from_millis(400)).await;
            let attributes = sqs
                .get_queue_attributes()
                .queue_url(&self.queue_url)
                .attribute_names(aws_sdk_sqs::types::QueueAttributeName::All)
                .send()
                .await?;
            let waiting: u64 = attributes
                .attributes()
                .into_iter()
                .flatten()
                .filter(|(name, _)| {
                    matches!(
                        name,
                        aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessages
                            | aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessagesNotVisible
                    )
                })
                .filter_map(|(_, v)| v.parse::<u64>().ok())
                .sum();
            let sent = self.meter.tally(&phase_name).ses_mails;
            quiet = if waiting == 0 && sent >= mails {
                quiet + 1
            } else {
                0
            };
        }
        let peak = (self.heap.peak)().saturating_sub(base);
        let busy = self.meter.sender_seconds(&phase_name);
        let phase = self.phase();
        phase.sender_seconds = busy;
        phase.sender_peak_heap = phase.sender_peak_heap.max(peak);
        Ok(())
    }

    fn card(&self, number: &str) -> Result<String, BoxError> {
        self.stripe.card(number)
    }
}

fn decode(bytes: &[u8]) -> Value {
    serde_json::from_slice(&gunzip(bytes)).unwrap_or(Value::Null)
}

/// The router gzips what it serves, as CloudFront does: the bench counts the compressed bytes and reads
/// the plain ones.
fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut plain = Vec::new();
        if flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut plain)
            .is_ok()
        {
            return plain;
        }
    }
    bytes.to_vec()
}

/// The `/assets/...` files an HTML page names (scripts, styles, preloads).
fn assets_named(html: &str) -> BTreeSet<String> {
    html.split('"')
        .filter(|part| part.starts_with("/assets/"))
        .map(str::to_owned)
        .collect()
}

/// Runs the day: `visits` visits, a checkout with each card outcome, an admin session and a mailing to
/// `subscribers` subscribers (seeded unmetered).
pub async fn run_day(
    bench: &mut Bench<'_>,
    gateway: &crate::Gateway,
    day: &Day,
) -> Result<(), BoxError> {
    let env = &gateway.env;
    let token = shared::auth::AuthKeys::from_env(&env.lookup("AuthFunction"))?
        .issue(
            crate::seed::ADMIN_EMAIL,
            shared::auth::Role::Admin,
            24 * 3600,
        )
        .map_err(|e| e.to_string())?;
    // A drink to look at and buy, with stock enough for the day.
    let (_, drinks) = bench
        .api("CatalogFunction", Method::GET, "/api/product/", None, None)
        .await;
    let drink = drinks
        .as_array()
        .or(drinks["product"].as_array())
        .into_iter()
        .flatten()
        .find(|d| d["TheNumber"].as_i64().unwrap_or(0) >= 5 && d["minimumAge"].is_null())
        .and_then(|d| d["_id"].as_str())
        .ok_or_else(|| format!("no drink in stock in the demo shop: {drinks}"))?
        .to_owned();
    seed_subscribers(env, day.subscribers).await?;
    // The demo seed's own mails go out before the day starts, uncounted.
    bench.begin("setup");
    bench.drain(0).await?;
    bench.end();

    for _ in 0..day.visits {
        bench.begin("visit");
        bench.page("/").await?;
        for uri in [
            "/api/home/home/uk/".to_owned(),
            "/api/connect/uk/palestine/connect/".to_owned(),
            "/api/category/".to_owned(),
            "/api/home/uk/review/".to_owned(),
            "/api/home/drinks/hom/uk/uk/".to_owned(),
            format!("/api/product/{drink}"),
            format!("/api/home_uk/palestine/comment/reviews?pageNumber=1&ProductsId={drink}"),
            "/api/home/search/uk/palestinedrinks?search=cola".to_owned(),
        ] {
            let function = if uri.contains("review") {
                "ReviewsFunction"
            } else if uri.contains("connect") {
                "ContentFunction"
            } else {
                "CatalogFunction"
            };
            let (status, body) = bench.api(function, Method::GET, &uri, None, None).await;
            if !status.is_success() {
                return Err(format!("a visit's {uri} answered {status}: {body}").into());
            }
        }
        bench.end();
    }

    for (phase, number) in [
        ("order-paid", "4242424242424242"),
        ("order-3ds", "4000002760003184"),
        ("order-declined", "4000000000000341"),
    ] {
        let method = bench.card(number)?;
        bench.begin(phase);
        bench
            .api(
                "OrdersFunction",
                Method::GET,
                "/api/order/payment-settings/",
                None,
                None,
            )
            .await;
        let body = json!({
            "fullname": "Cost Bench", "address": "1 High St, Leeds LS1 1AA",
            "phone": "07700 900123", "email": format!("{phase}@example.com"), "message": "",
            "product": [{"product": drink, "qty": 1}],
            "payment": {"provider": "stripe", "paymentMethod": method}
        });
        let (status, answer) = bench
            .api(
                "OrdersFunction",
                Method::POST,
                "/api/order/create/",
                None,
                Some(body),
            )
            .await;
        let expected = match phase {
            "order-paid" => status == StatusCode::CREATED,
            "order-3ds" => status == StatusCode::ACCEPTED,
            _ => status.is_client_error(),
        };
        if !expected {
            return Err(format!("{phase}: the checkout answered {status}: {answer}").into());
        }
        if phase == "order-3ds" {
            let id = answer["_id"].as_str().unwrap_or_default().to_owned();
            let secret = answer["clientSecret"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            self_authenticate(bench.stripe, &secret)?;
            let (status, answer) = bench
                .api(
                    "OrdersFunction",
                    Method::POST,
                    &format!("/api/order/confirm/{id}/"),
                    None,
                    None,
                )
                .await;
            if status != StatusCode::OK {
                return Err(format!("the 3-D Secure confirm answered {status}: {answer}").into());
            }
        }
        let mails = u64::from(phase != "order-declined");
        bench.drain(mails).await?;
        bench.end();
    }

    bench.begin("admin");
    let (status, answer) = bench
        .api(
            "AuthFunction",
            Method::POST,
            "/api/user/login/",
            None,
            Some(json!({"email": crate::seed::ADMIN_EMAIL})),
        )
        .await;
    if !status.is_success() {
        return Err(format!("the login code answered {status}: {answer}").into());
    }
    for (function, uri) in [
        ("OrdersFunction", "/api/order?pageNumber=1"),
        ("OrdersFunction", "/api/order/results/"),
        ("CatalogFunction", "/api/product/"),
        ("ReviewsFunction", "/api/reviews"),
        ("NewsletterFunction", "/api/subscription/"),
        ("NewsletterFunction", "/api/subscription/mailings/"),
        ("DiscountsFunction", "/api/code/"),
        ("AuthFunction", "/api/user/lists"),
    ] {
        let (status, answer) = bench
            .api(function, Method::GET, uri, Some(&token), None)
            .await;
        if !status.is_success() {
            return Err(format!("the admin's {uri} answered {status}: {answer}").into());
        }
    }
    bench.drain(0).await?;
    bench.end();

    bench.begin("mailing");
    let letter = json!({"MailList": ["Newsletter"], "data": {"subject": "The cost bench's letter",
        "sections": [{"title": "Summer drinks", "description": "A letter the cost model meters."}]}});
    let (status, answer) = bench
        .api(
            "NewsletterFunction",
            Method::POST,
            "/api/subscription/mailer/",
            Some(&token),
            Some(letter),
        )
        .await;
    if status != StatusCode::ACCEPTED {
        return Err(format!("the mailer answered {status}: {answer}").into());
    }
    let recipients = answer["recipients"].as_u64().unwrap_or(0);
    bench.drain(recipients).await?;
    bench.end();
    Ok(())
}

fn self_authenticate(stripe: &LocalStripe, secret: &str) -> Result<(), BoxError> {
    stripe.authenticate(secret, true)
}

/// The mailing's readers, written straight into the table as bench-mail does (not metered: sign-ups are
/// a visit's cost, not the mailing's).
async fn seed_subscribers(env: &crate::functions::LocalEnv, n: usize) -> Result<(), BoxError> {
    use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
    let table = env.vars("NewsletterFunction")["SUBSCRIPTION_TABLE"].clone();
    let lists = ["Newsletter".to_owned()];
    let emails: Vec<String> = (0..n)
        .map(|i| format!("reader.{i:05}@example.com"))
        .collect();
    for (chunk_no, chunk) in emails.chunks(25).enumerate() {
        let mut writes = Vec::new();
        for (i, email) in chunk.iter().enumerate() {
            let item = newsletter::stored_subscriber(email, &lists, (chunk_no * 25 + i) as u64)
                .map_err(|e| format!("{e:?}"))?;
            writes.push(
                WriteRequest::builder()
                    .put_request(PutRequest::builder().set_item(Some(item)).build()?)
                    .build(),
            );
        }
        env.dynamodb
            .batch_write_item()
            .request_items(table.clone(), writes)
            .send()
            .await?;
    }
    let app = crate::functions::newsletter_state(env, "NewsletterFunction")?;
    newsletter::add_to_list_counts(&app, &lists, n as i64)
        .await
        .map_err(|e| format!("{e:?}"))?;
    Ok(())
}

/// A phase's cost in dollars, per run, with its parts.
#[derive(Debug, Clone, Default)]
pub struct Cost {
    pub parts: BTreeMap<&'static str, f64>,
}

impl Cost {
    pub fn total(&self) -> f64 {
        self.parts.values().sum()
    }

    fn add(&mut self, part: &'static str, dollars: f64) {
        *self.parts.entry(part).or_default() += dollars;
    }
}

/// Prices what a phase used, per run. `waf` says whether the edge's web ACL inspects the requests.
fn price(
    phase: &Phase,
    tally: &Tally,
    memory: &HashMap<String, u32>,
    p: &Prices,
    waf: bool,
) -> Cost {
    let mut cost = Cost::default();
    let gb = |function: &str| f64::from(*memory.get(function).unwrap_or(&128)) / 1024.0;
    let invocations = phase.invocations.len() as f64 + tally.sqs_batches as f64;
    let mut gb_seconds: f64 = phase
        .invocations
        .iter()
        .map(|i| (i.duration.as_millis() as f64 + 1.0).ceil() / 1000.0 * gb(&i.function))
        .sum();
    gb_seconds += phase.sender_seconds * gb("SenderFunction");
    let cold: u64 = phase.cold_starts.values().sum::<u64>() + u64::from(tally.sqs_batches > 0);
    gb_seconds += phase
        .cold_starts
        .iter()
        .map(|(f, n)| *n as f64 * INIT_SECONDS * gb(f))
        .sum::<f64>();
    cost.add(
        "Lambda",
        invocations * p.lambda_request + gb_seconds * p.lambda_gb_second,
    );
    let edge_requests = (phase.api_requests + phase.page_requests) as f64;
    cost.add(
        "API Gateway",
        phase.api_requests as f64 * p.http_api_request,
    );
    cost.add(
        "CloudFront",
        edge_requests * p.cloudfront_https_request
            + phase.bytes_out as f64 / 1e9 * p.cloudfront_gb_out
            + phase.page_requests as f64 * p.cloudfront_function,
    );
    if waf {
        cost.add("WAF", edge_requests * p.waf_request);
    }
    cost.add(
        "DynamoDB",
        tally.read_units * p.dynamodb_read_unit + tally.write_units * p.dynamodb_write_unit,
    );
    cost.add(
        "S3",
        tally.s3_get as f64 * p.s3_get_request + tally.s3_put as f64 * p.s3_put_request,
    );
    cost.add("SQS", tally.sqs_requests as f64 * p.sqs_request);
    cost.add("SES", tally.ses_mails as f64 * p.ses_mail);
    cost.add(
        "Secrets Manager and SSM",
        cold as f64 * (p.secrets_call + p.ssm_call),
    );
    cost.add(
        "CloudWatch Logs",
        invocations * LOG_BYTES_PER_INVOCATION / 1e9 * p.logs_gb_ingested,
    );
    cost.add("X-Ray", invocations * p.xray_trace);
    let runs = phase.runs.max(1) as f64;
    for value in cost.parts.values_mut() {
        *value /= runs;
    }
    cost
}

/// The month with no traffic, with its parts, in dollars.
pub fn floor(standing: &Standing, p: &Prices, waf: bool) -> Cost {
    let mut cost = Cost::default();
    cost.add("alarms", standing.alarms as f64 * p.alarm_month);
    cost.add("secrets", standing.secrets as f64 * p.secret_month);
    if waf {
        cost.add(
            "WAF",
            p.waf_acl_month + standing.waf_rules.max(2) as f64 * p.waf_rule_month,
        );
    }
    cost.add(
        "tables and backups",
        DATA_GB * (p.dynamodb_gb_month + p.dynamodb_pitr_gb_month),
    );
    cost.add("images", IMAGES_GB * p.s3_gb_month);
    // The schedules' runs: an invocation, a trace and its log lines each, and about 100 ms at 256 MB.
    cost.add(
        "schedules",
        standing.scheduled_runs
            * (p.lambda_request
                + p.xray_trace
                + LOG_BYTES_PER_INVOCATION / 1e9 * p.logs_gb_ingested
                + 0.1 * 0.25 * p.lambda_gb_second),
    );
    // Lambda's SQS pollers: about five long polls (20 s) open per queue, three receives a minute each.
    cost.add(
        "queue polling",
        standing.polled_queues as f64 * 5.0 * 3.0 * MINUTES_A_MONTH * p.sqs_request,
    );
    // A month's retained logs at the retention's end, with no new traffic: what the last month left.
    cost.add("log storage", 0.1 * p.logs_gb_month);
    cost
}

fn pounds(dollars: f64) -> f64 {
    dollars * GBP_PER_USD
}

fn percentile(sorted: &[Duration], share: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

/// Prints the figures; answers each measured function's recommended memory.
pub fn report(bench: &Bench<'_>, standing: &Standing, waf: bool) -> BTreeMap<String, u32> {
    let p = &LONDON;
    println!(
        "prices: AWS eu-west-2 on-demand as of {PRICES_AS_OF}, $1 = £{GBP_PER_USD} (local/src/cost/prices.rs; free tiers not counted; WAF {})",
        if waf { "on" } else { "off" }
    );
    let mut costs = BTreeMap::new();
    for (name, phase) in bench.phases.iter().filter(|(name, _)| *name != "setup") {
        let tally = bench.meter.tally(name);
        let cost = price(phase, &tally, &bench.memory, p, waf);
        let runs = phase.runs.max(1) as f64;
        println!(
            "  {name} (×{}): per run {} API requests, {} page requests, {:.0} KB out, {} invocations, DynamoDB {:.1} RRU {:.1} WRU, S3 {} GET {} PUT, SQS {}, SES {}, cold starts {}",
            phase.runs,
            phase.api_requests as f64 / runs,
            phase.page_requests as f64 / runs,
            phase.bytes_out as f64 / 1024.0 / runs,
            (phase.invocations.len() as f64 + tally.sqs_batches as f64) / runs,
            tally.read_units / runs,
            tally.write_units / runs,
            tally.s3_get as f64 / runs,
            tally.s3_put as f64 / runs,
            tally.sqs_requests as f64 / runs,
            tally.ses_mails as f64 / runs,
            phase.cold_starts.values().sum::<u64>() as f64 / runs,
        );
        let parts: Vec<String> = cost
            .parts
            .iter()
            .filter(|(_, v)| **v > 0.0)
            .map(|(k, v)| format!("{k} £{:.6}", pounds(*v)))
            .collect();
        println!(
            "      £{:.6} a run: {}",
            pounds(cost.total()),
            parts.join(", ")
        );
        let calls: Vec<String> = tally
            .operations
            .iter()
            .map(|(op, n)| format!("{op} {}", *n as f64 / runs))
            .collect();
        println!("      calls a run: {}", calls.join(", "));
        costs.insert(name.clone(), (cost.total(), tally.ses_mails as f64 / runs));
    }
    let of = |name: &str| costs.get(name).map_or(0.0, |c| c.0);
    let visit = of("visit");
    let paid = of("order-paid");
    let secure = of("order-3ds");
    let declined = of("order-declined");
    let order = (paid + secure) / 2.0;
    let mails = costs.get("mailing").map_or(0.0, |c| c.1);
    let per_mail = if mails > 0.0 {
        of("mailing") / mails
    } else {
        0.0
    };
    println!("£ per 1,000 visits: £{:.4}", pounds(visit * 1_000.0));
    println!(
        "£ per order: £{:.5} (paid at once £{:.5}, after 3-D Secure £{:.5}; a declined attempt £{:.5})",
        pounds(order),
        pounds(paid),
        pounds(secure),
        pounds(declined)
    );
    println!(
        "£ per 10,000 mails: £{:.4} (a mailing of {mails:.0} mails, priced per mail)",
        pounds(per_mail * 10_000.0)
    );
    let floor = floor(standing, p, waf);
    let parts: Vec<String> = floor
        .parts
        .iter()
        .map(|(k, v)| format!("{k} £{:.2}", pounds(*v)))
        .collect();
    println!(
        "monthly floor (no traffic): £{:.2} ({}; {} alarms at $0.10, {} secrets at $0.40{})",
        pounds(floor.total()),
        parts.join(", "),
        standing.alarms,
        standing.secrets,
        if waf {
            format!(", web ACL $5 + {} rules at $1", standing.waf_rules.max(2))
        } else {
            String::new()
        }
    );
    println!(
        "a month at (assuming {VISITS_PER_ORDER:.0} visits an order and a monthly newsletter to as many subscribers as orders):"
    );
    for orders in [100.0, 1_000.0, 10_000.0] {
        let traffic = orders * order + orders * VISITS_PER_ORDER * visit + orders * per_mail;
        println!(
            "  {orders:>6.0} orders: £{:.2} (floor £{:.2} + traffic £{:.2})",
            pounds(floor.total() + traffic),
            pounds(floor.total()),
            pounds(traffic)
        );
    }

    println!("per function (handler wall time against the local emulator; heap is the allocator's peak growth during the request, not RSS):");
    println!(
        "  {:<30} {:>6} {:>8} {:>8} {:>10} {:>9} {:>12}",
        "function", "calls", "p50 ms", "max ms", "peak heap", "template", "recommended"
    );
    let mut by_function: BTreeMap<String, (Vec<Duration>, u64)> = BTreeMap::new();
    for phase in bench.phases.values() {
        for i in &phase.invocations {
            let entry = by_function.entry(i.function.clone()).or_default();
            entry.0.push(i.duration);
            entry.1 = entry.1.max(i.peak_heap);
        }
    }
    // The sender runs per queue batch: its invocations are the receives that handed it mail, its
    // duration the time from a receive to its delete.
    let mut sender = (0u64, 0.0f64, 0u64);
    for (name, phase) in bench.phases.iter().filter(|(name, _)| *name != "setup") {
        sender.0 += bench.meter.tally(name).sqs_batches;
        sender.1 += phase.sender_seconds;
        sender.2 = sender.2.max(phase.sender_peak_heap);
    }
    if sender.0 > 0 {
        let mean = Duration::from_secs_f64(sender.1 / sender.0 as f64);
        let entry = by_function.entry("SenderFunction".to_owned()).or_default();
        entry.0 = vec![mean; sender.0 as usize];
        entry.1 = entry.1.max(sender.2);
    }
    let mut recommended = BTreeMap::new();
    for (function, (mut times, peak)) in by_function {
        times.sort_unstable();
        let memory = recommended_memory_mb(peak);
        recommended.insert(function.clone(), memory);
        let calls = times.len().to_string();
        println!(
            "  {:<30} {:>6} {:>8} {:>8} {:>9.1}M {:>7} MB {:>9} MB",
            function,
            calls,
            percentile(&times, 0.5).as_millis(),
            times.last().copied().unwrap_or_default().as_millis(),
            peak as f64 / (1024.0 * 1024.0),
            bench.memory.get(&function).copied().unwrap_or(0),
            memory
        );
    }
    println!("  (SenderFunction: queue batches, the mean from receive to delete; recommended: the smallest 128 MB step holding {} MB + 2 × peak heap: the functions wait on I/O, so more memory buys no latency)", prices::RUNTIME_BASE_MB);
    recommended
}
