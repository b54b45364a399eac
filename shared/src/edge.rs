//! What CloudFront vouches for. The API is reached only through CloudFront: CloudFront adds a secret
//! origin header (`X-Origin-Verify`) and every Lambda refuses a request without it, so the direct
//! execute-api address is useless. Only such a request's `CloudFront-Viewer-Address` is believed: it is the
//! viewer's address, which the per-address limits count. A header the browser sets is never read otherwise.

use crate::error::message_response;
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum::Router;
use http::request::Parts;
use http::StatusCode;
use std::net::IpAddr;
use std::sync::Arc;

pub const ORIGIN_VERIFY_HEADER: &str = "x-origin-verify";
pub const VIEWER_ADDRESS_HEADER: &str = "cloudfront-viewer-address";

/// The viewer's address, when a trusted layer established it (none in the tests' plain routers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddress>()
            .copied()
            .unwrap_or(ClientAddress(None)))
    }
}

/// `CloudFront-Viewer-Address` is `ip:port` (IPv6 without brackets): the address is before the last colon.
pub fn parse_viewer_address(value: &str) -> Option<IpAddr> {
    let value = value.trim();
    let (ip, port) = value.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    ip.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

/// The key a viewer address is counted under by the per-address limits: an IPv4 address as it is, an IPv6
/// address by its /64 (`2001:db8:1:2::/64`). One IPv6 subscriber is given a whole /64, so keying by the
/// full address would let one household or server step through 2^64 addresses, each with a fresh limit.
pub fn rate_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                format!("{}/64", std::net::Ipv6Addr::from(network))
            }
        },
    }
}

/// Refuses requests that lack the origin secret (403) and records the viewer's address of those that have
/// it. A request with the secret but no readable `CloudFront-Viewer-Address` is refused too (403): the
/// per-address limits must never fail open, and CloudFront always sends it (template.yaml's origin request
/// policy), so its absence means the distribution is misconfigured. Wraps every router a Lambda serves
/// (`shared::lambda::run`).
pub fn through_cloudfront(router: Router, origin_secret: &str) -> Router {
    let secret: Arc<[u8]> = origin_secret.as_bytes().into();
    router.layer(axum::middleware::from_fn_with_state(secret, check_origin))
}

async fn check_origin(
    State(secret): State<Arc<[u8]>>,
    mut request: Request,
    next: Next,
) -> Response {
    let sent = request
        .headers()
        .get(ORIGIN_VERIFY_HEADER)
        .map(|v| v.as_bytes())
        .unwrap_or_default();
    if !same(sent, &secret) {
        return message_response(
            StatusCode::FORBIDDEN,
            "Use the shop's address: this one does not serve requests",
        );
    }
    let viewer = request
        .headers()
        .get(VIEWER_ADDRESS_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_viewer_address);
    let Some(viewer) = viewer else {
        tracing::error!(
            "a request with the origin secret but no CloudFront-Viewer-Address: check the distribution's origin request policy"
        );
        return message_response(
            StatusCode::FORBIDDEN,
            "The shop could not tell where this request came from: try again from the shop's address",
        );
    };
    request.extensions_mut().insert(ClientAddress(Some(viewer)));
    request.headers_mut().remove(ORIGIN_VERIFY_HEADER);
    next.run(request).await
}

/// Constant time in the length of the expected secret.
fn same(sent: &[u8], expected: &[u8]) -> bool {
    let mut diff = sent.len() ^ expected.len();
    for (i, byte) in expected.iter().enumerate() {
        diff |= usize::from(byte ^ sent.get(i).copied().unwrap_or(0));
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    fn app() -> Router {
        let router = Router::new().route(
            "/who",
            get(|ClientAddress(ip): ClientAddress| async move {
                ip.map(|ip| ip.to_string()).unwrap_or_default()
            }),
        );
        through_cloudfront(router, "origin-secret")
    }

    async fn who(headers: &[(&str, &str)]) -> (StatusCode, String) {
        let mut request = Request::builder().uri("/who");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = app()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn a_request_without_the_origin_secret_is_refused_whatever_it_claims() {
        let (status, _) = who(&[(VIEWER_ADDRESS_HEADER, "203.0.113.9:4000")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = who(&[(ORIGIN_VERIFY_HEADER, "origin-secreT")]).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
    }

    #[tokio::test]
    async fn the_viewer_address_comes_from_cloudfront_only() {
        let (status, body) = who(&[
            (ORIGIN_VERIFY_HEADER, "origin-secret"),
            (VIEWER_ADDRESS_HEADER, "203.0.113.9:4000"),
            ("x-forwarded-for", "198.51.100.1"),
        ])
        .await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "203.0.113.9"));
    }

    #[tokio::test]
    async fn a_request_with_the_secret_but_no_viewer_address_is_refused_not_let_through_unlimited()
    {
        for headers in [
            vec![(ORIGIN_VERIFY_HEADER, "origin-secret")],
            vec![
                (ORIGIN_VERIFY_HEADER, "origin-secret"),
                (VIEWER_ADDRESS_HEADER, "not an address"),
            ],
        ] {
            let (status, body) = who(&headers).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{headers:?}");
            assert!(body.contains("could not tell where"), "{body}");
        }
    }

    #[test]
    fn ipv6_viewers_are_counted_by_their_64_and_ipv4_by_their_address() {
        let key = |text: &str| rate_key(text.parse().unwrap());
        assert_eq!(key("203.0.113.9"), "203.0.113.9");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:203.0.113.9"), "203.0.113.9");
    }

    #[test]
    fn viewer_addresses_parse_for_both_families() {
        assert_eq!(
            parse_viewer_address("2001:db8::1:443"),
            "2001:db8::1".parse().ok()
        );
        assert_eq!(
            parse_viewer_address("192.0.2.1:1234"),
            "192.0.2.1".parse().ok()
        );
        assert_eq!(parse_viewer_address("192.0.2.1"), None);
        assert_eq!(parse_viewer_address("evil"), None);
    }
}
