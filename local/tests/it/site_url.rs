//! How a deployed function learns the shop's address: from `SITE_URL`, or else from the Parameter Store
//! parameter the stack writes (read here from the emulator's SSM, as a cold start would).

use shared::config::{ConfigError, Lookup};
use std::collections::BTreeMap;
use testkit::emulator::Emulator;

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn lookup(map: &BTreeMap<String, String>) -> impl Lookup + '_ {
    move |name: &str| map.get(name).cloned()
}

async fn ssm() -> aws_sdk_ssm::Client {
    shared::aws::ssm(&Emulator::for_tests().sdk_config().await)
}

async fn put(ssm: &aws_sdk_ssm::Client, name: &str, value: &str) {
    ssm.put_parameter()
        .name(name)
        .value(value)
        .r#type(aws_sdk_ssm::types::ParameterType::String)
        .overwrite(true)
        .send()
        .await
        .expect("the emulator stores the parameter");
}

fn unique(label: &str) -> String {
    format!(
        "/t{}/{label}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

#[tokio::test]
async fn site_url_comes_from_the_parameter_when_the_environment_leaves_it_blank() {
    let ssm = ssm().await;
    let name = unique("site-url");
    put(&ssm, &name, "https://d111abc.cloudfront.net/").await;
    let vars = env(&[
        ("SITE_URL", ""),
        ("SITE_URL_PARAMETER", &name),
        ("OTHER", "kept"),
    ]);

    let resolved = shared::site::resolve(lookup(&vars), &ssm).await.unwrap();

    assert_eq!(
        resolved.get("SITE_URL").as_deref(),
        Some("https://d111abc.cloudfront.net")
    );
    assert_eq!(resolved.get("OTHER").as_deref(), Some("kept"));
}

#[tokio::test]
async fn a_custom_domain_in_site_url_wins_over_the_parameter() {
    let ssm = ssm().await;
    let name = unique("site-url");
    put(&ssm, &name, "https://d222abc.cloudfront.net").await;
    let vars = env(&[
        ("SITE_URL", "https://shop.example.co.uk"),
        ("SITE_URL_PARAMETER", &name),
    ]);

    let resolved = shared::site::resolve(lookup(&vars), &ssm).await.unwrap();

    assert_eq!(
        resolved.get("SITE_URL").as_deref(),
        Some("https://shop.example.co.uk")
    );
}

#[tokio::test]
async fn nothing_is_looked_up_locally_where_neither_is_set() {
    // No parameter exists under this name: a lookup would fail, so success shows none was made.
    let vars = env(&[]);
    let resolved = shared::site::resolve(lookup(&vars), &ssm().await)
        .await
        .unwrap();
    assert_eq!(resolved.get("SITE_URL"), None);
}

#[tokio::test]
async fn a_missing_parameter_stops_the_cold_start_naming_the_variable() {
    let name = unique("never-written");
    let vars = env(&[("SITE_URL_PARAMETER", &name)]);

    let err = shared::site::resolve(lookup(&vars), &ssm().await)
        .await
        .err()
        .expect("a missing parameter is an error");

    assert!(
        matches!(
            err,
            ConfigError::Invalid {
                name: "SITE_URL_PARAMETER",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains(&name), "{err}");
}

#[tokio::test]
async fn a_parameter_that_is_not_an_address_is_refused() {
    let ssm = ssm().await;
    let name = unique("site-url");
    put(&ssm, &name, "d333abc.cloudfront.net").await;
    let vars = env(&[("SITE_URL_PARAMETER", &name)]);

    let err = shared::site::resolve(lookup(&vars), &ssm)
        .await
        .err()
        .expect("a bare host is refused");

    assert!(err.to_string().contains("not an http(s) address"), "{err}");
}
