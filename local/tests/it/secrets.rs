//! A cold start reads all of a function's secrets in one call, and the site address beside it.

use std::time::Duration;
use testkit::emulator::{Emulator, LatencyProxy};

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
        ("AWS_REGION", testkit::emulator::REGION),
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

/// A cold start's reads (`shared::startup`): the secrets in one call and the site address beside it, both
/// under way before the caller awaits them; with `SITE_URL` set, Parameter Store is not asked at all.
#[tokio::test]
async fn a_cold_start_reads_its_secrets_and_site_address_side_by_side() {
    let emulator = Emulator::for_tests();
    let sdk = emulator.sdk_config().await;
    let unique = uuid::Uuid::new_v4().simple().to_string();
    let (secret, parameter) = (
        format!("startup-test/{unique}/key"),
        format!("/startup-test/{unique}/site-url"),
    );
    shared::secrets::client(&sdk)
        .create_secret()
        .name(&secret)
        .secret_string("signing-key")
        .send()
        .await
        .unwrap();
    shared::aws::ssm(&sdk)
        .put_parameter()
        .name(&parameter)
        .value("https://d111abc.cloudfront.net/")
        .r#type(aws_sdk_ssm::types::ParameterType::String)
        .send()
        .await
        .unwrap();
    // Each call waits half a second at the proxy: read one after the other, the second could not reach it
    // before the first had waited.
    let delay = Duration::from_millis(500);
    let proxy = LatencyProxy::start(&emulator.endpoint, delay)
        .await
        .unwrap();
    let mut through = emulator.sdk_config().await.into_builder();
    through.set_endpoint_url(Some(proxy.endpoint.clone()));
    let through = through.build();
    let vars = |site_url: &str| {
        vec![
            ("KEY_SECRET_ID".to_owned(), secret.clone()),
            ("SITE_URL".to_owned(), site_url.to_owned()),
            ("SITE_URL_PARAMETER".to_owned(), parameter.clone()),
        ]
    };

    let started = std::time::Instant::now();
    let reading = shared::startup::read(&through, vars(""));
    // The reads run on their own, before the caller awaits them, and both are at the proxy within the
    // first call's wait.
    while proxy.calls().len() < 2 && started.elapsed() < delay * 4 / 5 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut calls = proxy.calls();
    calls.sort();
    assert_eq!(
        calls,
        [
            "AmazonSSM.GetParameter",
            "secretsmanager.BatchGetSecretValue"
        ],
        "after {:?}",
        started.elapsed()
    );
    let settings = reading.await.unwrap();
    use shared::config::Lookup;
    assert_eq!(settings.get("KEY").as_deref(), Some("signing-key"));
    assert_eq!(
        settings.get("SITE_URL").as_deref(),
        Some("https://d111abc.cloudfront.net")
    );

    // An address in the environment is taken as it is: only the secrets are read.
    let settings = shared::startup::read(&through, vars("https://shop.example"))
        .await
        .unwrap();
    assert_eq!(
        settings.get("SITE_URL").as_deref(),
        Some("https://shop.example")
    );
    assert_eq!(proxy.calls().len(), 3, "{:?}", proxy.calls());
    assert_eq!(
        proxy.calls().last().map(String::as_str),
        Some("secretsmanager.BatchGetSecretValue")
    );
}
