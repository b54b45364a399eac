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
    let through = shared::aws::defaults()
        .region(aws_config::Region::new(shared::emulator::REGION))
        .endpoint_url(&proxy.endpoint)
        .credentials_provider(aws_sdk_dynamodb::config::Credentials::new(
            "local", "local", None, None, "test",
        ))
        .load()
        .await;
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

    // A secret that does not exist stops the start, naming its setting.
    let missing = shared::secrets::resolve(
        &shared::secrets::client(&through),
        [("GONE_SECRET_ID".to_owned(), id("gone"))],
    )
    .await
    .unwrap_err();
    assert!(missing.to_string().contains("GONE"), "{missing}");
}
