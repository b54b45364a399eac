//! Issue 23: a cold start reads all of a function's secrets in one call, and the site address beside it.

use shared::emulator::{Emulator, LatencyProxy};
use std::time::Duration;

#[tokio::test]
async fn every_secret_comes_in_one_batch_call() {
    let emulator = Emulator::for_tests();
    let direct = shared::secrets::client(&emulator.sdk_config().await);
    let id = |name: &str| format!("secrets-test/{}/{name}", uuid::Uuid::new_v4());
    let (first, second, third) = (id("first"), id("second"), id("third"));
    for (secret, value) in [(&first, "one"), (&second, "two"), (&third, "three")] {
        direct
            .create_secret()
            .name(secret)
            .secret_string(value)
            .send()
            .await
            .unwrap();
    }
    let proxy = LatencyProxy::start(&emulator.endpoint, Duration::ZERO)
        .await
        .unwrap();
    // Built as a cold start builds it: from a Lambda's environment, without the SDK's loader.
    let lambda_env = [
        ("AWS_REGION", shared::emulator::REGION),
        ("AWS_ACCESS_KEY_ID", "local"),
        ("AWS_SECRET_ACCESS_KEY", "local"),
        ("AWS_ENDPOINT_URL", proxy.endpoint.as_str()),
    ];
    let through = shared::aws::from_lambda_env(&|name: &str| {
        lambda_env
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_owned())
    })
    .expect("a Lambda's environment is enough");
    let started = std::time::Instant::now();
    let env = shared::secrets::resolve(
        &shared::secrets::client(&through),
        [
            ("A_SECRET_ID".to_owned(), first),
            ("B_SECRET_ID".to_owned(), second),
            ("C_SECRET_ID".to_owned(), third),
            ("PLAIN".to_owned(), "kept".to_owned()),
        ],
    )
    .await
    .unwrap();
    let vars = env.vars();
    assert_eq!(
        (
            vars["A"].as_str(),
            vars["B"].as_str(),
            vars["C"].as_str(),
            vars["PLAIN"].as_str()
        ),
        ("one", "two", "three", "kept")
    );
    assert_eq!(proxy.calls(), ["secretsmanager.BatchGetSecretValue"]);
    // The proxy saw the emulator at work for part of the call, never longer than the call took.
    let (took, emulator_time) = (
        started.elapsed(),
        proxy.emulator_time(started, std::time::Instant::now()),
    );
    assert!(
        !emulator_time.is_zero() && emulator_time <= took,
        "{emulator_time:?} of {took:?}"
    );

    // A secret that does not exist stops the start, naming its setting.
    let missing = shared::secrets::resolve(
        &shared::secrets::client(&through),
        [("GONE_SECRET_ID".to_owned(), id("gone"))],
    )
    .await
    .unwrap_err();
    assert!(missing.to_string().contains("GONE"), "{missing}");
}
