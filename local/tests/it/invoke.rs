//! `make invoke`'s code path, one event per function: the environment read from a running gateway's
//! `/_local/env`, the event file filled in, the function's router run against the same emulator and data.

use serde_json::Value;
use testkit::emulator::{Emulator, LocalNames, LocalStripe};

const SITE: &str = "http://127.0.0.1:3997";

/// A gateway on its own tables, served on a free port as `make run` serves it.
async fn serve_gateway() -> u16 {
    let dist = std::env::temp_dir();
    let gateway = local::build(
        Emulator::for_tests(),
        LocalStripe::for_tests(),
        &LocalNames::unique(),
        dist,
        SITE,
    )
    .await
    .expect("the gateway builds");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, gateway.router).await });
    port
}

fn body(response: &Value) -> Value {
    serde_json::from_str(response["body"].as_str().unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_event_per_function_runs_against_the_running_shop() {
    let port = serve_gateway().await;
    let email = testkit::new_email("invoke");
    let set = [("EMAIL".to_owned(), email.clone())];
    // (function, event, status): public reads, and admin reads with the token make invoke signs.
    let cases = [
        ("catalog", "list-products", 200),
        ("auth", "request-code", 200),
        ("content", "show-site", 200),
        ("discounts", "list-codes", 200),
        ("orders", "list-orders", 200),
        ("images", "list-images", 200),
        ("reviews", "show-summary", 200),
        ("newsletter", "list-lists", 200),
    ];
    let mut covered: Vec<String> = Vec::new();
    for (function, event, status) in cases {
        let response = local::invoke::run(port, function, event, &set)
            .await
            .unwrap_or_else(|e| panic!("{function} {event}: {e}"));
        assert_eq!(
            response["statusCode"], status,
            "{function} {event}: {response}"
        );
        covered.push(
            local::invoke::function(function)
                .unwrap()
                .logical_id
                .to_owned(),
        );
    }
    // The scheduled function takes EventBridge's event and answers what it did.
    let expiry = local::invoke::run(port, "ordersexpiry", "scheduled", &[])
        .await
        .unwrap_or_else(|e| panic!("ordersexpiry scheduled: {e}"));
    assert_eq!(expiry["expired"], 0, "{expiry}");
    // make reconcile STAGE=local's task: the month's report, as text too.
    let month = shared::time::now_iso()[..7].to_owned();
    let reconciled = local::invoke::run(
        port,
        "ordersexpiry",
        "reconcile",
        &[("MONTH".to_owned(), month.clone())],
    )
    .await
    .unwrap_or_else(|e| panic!("ordersexpiry reconcile: {e}"));
    assert_eq!(
        reconciled["report"]["month"],
        month.as_str(),
        "{reconciled}"
    );
    assert!(
        reconciled["text"]
            .as_str()
            .is_some_and(|t| t.starts_with(&format!("Reconciliation for {month}"))),
        "{reconciled}"
    );
    covered.push("OrdersExpiryFunction".to_owned());
    // The queue-fed functions take an SQS batch (or the sweep's schedule) and answer what they did.
    let sweep = local::invoke::run(port, "sender", "sweep", &[])
        .await
        .unwrap_or_else(|e| panic!("sender sweep: {e}"));
    assert!(sweep["queued"].is_u64(), "{sweep}");
    assert!(sweep["recounted"].is_u64(), "{sweep}");
    // make backfill-counts' task: the list counts, set from the subscribers.
    let backfill = local::invoke::run(port, "sender", "backfill-counts", &[])
        .await
        .unwrap_or_else(|e| panic!("sender backfill-counts: {e}"));
    assert!(backfill["listCounts"].is_object(), "{backfill}");
    covered.push("SenderFunction".to_owned());
    let complaint = local::invoke::run(port, "newsletterfeedback", "complaint", &set)
        .await
        .unwrap_or_else(|e| panic!("newsletterfeedback complaint: {e}"));
    assert_eq!(
        complaint["batchItemFailures"],
        serde_json::json!([]),
        "{complaint}"
    );
    covered.push("NewsletterFeedbackFunction".to_owned());
    let mut all: Vec<String> = local::functions::FUNCTIONS
        .iter()
        .map(|f| f.logical_id.to_owned())
        .collect();
    all.sort();
    covered.sort();
    assert_eq!(covered, all, "one event for every function");

    // The same data the gateway serves: the seeded drinks, and the code mail in the same outbox.
    let products = local::invoke::run(port, "catalog", "list-products", &[])
        .await
        .unwrap();
    assert_eq!(body(&products).as_array().unwrap().len(), 7);
    let mails = testkit::mails_to(&email);
    assert_eq!(mails.len(), 1, "the code request sent one mail to {email}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_functions_events_and_silent_shops_are_explained() {
    let port = serve_gateway().await;
    let unknown = local::invoke::run(port, "nothing", "list-products", &[])
        .await
        .unwrap_err()
        .to_string();
    assert!(unknown.contains("catalog"), "{unknown}");
    let missing = local::invoke::run(port, "catalog", "no-such-event", &[])
        .await
        .unwrap_err()
        .to_string();
    assert!(
        missing.contains("events/catalog/no-such-event.json"),
        "{missing}"
    );
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let silent = local::invoke::run(free, "catalog", "list-products", &[])
        .await
        .unwrap_err()
        .to_string();
    assert!(silent.contains("make run"), "{silent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_environment_is_the_gateways_with_the_emulator_and_no_hand_copied_values() {
    let port = serve_gateway().await;
    let env = tokio::task::spawn_blocking(move || local::invoke::gateway_env(port))
        .await
        .unwrap()
        .unwrap();
    let catalog = &env["CatalogFunction"];
    assert_eq!(catalog["AWS_ENDPOINT_URL"], Emulator::for_tests().endpoint);
    assert_eq!(catalog["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"], "false");
    assert_eq!(catalog["AWS_REGION"], testkit::emulator::REGION);
    assert_eq!(catalog["SITE_URL"], SITE);
    // Secrets travel by id, as in AWS: the value is read from the emulator's Secrets Manager.
    assert!(catalog["ORIGIN_VERIFY_SECRET_ID"].ends_with("/ORIGIN_VERIFY"));
    assert!(catalog.get("ORIGIN_VERIFY").is_none());
    assert!(catalog["CATALOG_TABLE"].ends_with("-CatalogTable"));
    assert_eq!(env.len(), local::functions::FUNCTIONS.len());
}
