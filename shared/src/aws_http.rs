//! The AWS SDK's HTTP client: hyper over `crate::https`, one connection pool shared by every SDK client of
//! the process.
//!
//! The SDK's stock client (`aws-smithy-http-client`) reads the system's root certificates and builds a
//! fresh TLS set-up for every SDK client at its construction, which a cold start pays for each service it
//! uses. This one sets TLS up once (`crate::https`), keeps one connector per timeout setting, and builds
//! nothing until the first request. Like the stock client it applies the connect and read timeouts and
//! tells the SDK's retry logic which failures are transient (I/O, timeouts) and which are not.

use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::retries::ErrorKind;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use std::collections::HashMap;
use std::error::Error;
use std::sync::Mutex;
use std::time::Duration;

/// The client every SDK config of the process is given.
pub fn client() -> SharedHttpClient {
    SharedHttpClient::new(Pools::default())
}

/// Connect and read timeouts: a connector applies one pair.
type Timeouts = (Option<Duration>, Option<Duration>);

/// One connector (and so one pool of connections) per timeout setting the SDK clients ask for.
#[derive(Debug, Default)]
struct Pools(Mutex<HashMap<Timeouts, SharedHttpConnector>>);

impl HttpClient for Pools {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        _components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        self.connector((settings.connect_timeout(), settings.read_timeout()))
    }
}

impl Pools {
    fn connector(&self, timeouts: Timeouts) -> SharedHttpConnector {
        self.0
            .lock()
            .expect("no panic while the pools are locked")
            .entry(timeouts)
            .or_insert_with(|| SharedHttpConnector::new(Connector::new(timeouts)))
            .clone()
    }
}

#[derive(Debug)]
struct Connector {
    hyper: Client<crate::https::Connector, SdkBody>,
    read_timeout: Option<Duration>,
}

impl Connector {
    fn new((connect_timeout, read_timeout): Timeouts) -> Self {
        let hyper = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .build(crate::https::connector(connect_timeout));
        Connector {
            hyper,
            read_timeout,
        }
    }
}

impl HttpConnector for Connector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let request = match request.try_into_http1x() {
            Ok(request) => request,
            Err(error) => {
                return HttpConnectorFuture::ready(Err(ConnectorError::user(error.into())))
            }
        };
        let response = self.hyper.request(request);
        let read_timeout = self.read_timeout;
        HttpConnectorFuture::new(async move {
            let response = match read_timeout {
                Some(limit) => tokio::time::timeout(limit, response)
                    .await
                    .map_err(|elapsed| ConnectorError::timeout(elapsed.into()))?,
                None => response.await,
            }
            .map_err(|error| classify(error.into()))?;
            HttpResponse::try_from(response.map(SdkBody::from_body_1_x))
                .map_err(|error| ConnectorError::other(error.into(), None))
        })
    }
}

/// Sorts a failed request for the SDK's retry logic: a timeout, a connection that could not be made or
/// broke (I/O), a response cut short (transient), or anything else (not retried).
fn classify(error: Box<dyn Error + Send + Sync>) -> ConnectorError {
    let mut timed_out = false;
    let mut io = false;
    let mut cut_short = false;
    let mut next: Option<&(dyn Error + 'static)> = Some(error.as_ref());
    while let Some(cause) = next {
        if let Some(failure) = cause.downcast_ref::<std::io::Error>() {
            timed_out |= failure.kind() == std::io::ErrorKind::TimedOut;
            io = true;
        }
        if let Some(failure) = cause.downcast_ref::<hyper_util::client::legacy::Error>() {
            io |= failure.is_connect();
        }
        if let Some(failure) = cause.downcast_ref::<hyper::Error>() {
            timed_out |= failure.is_timeout();
            io |= failure.is_closed() || failure.is_canceled();
            cut_short |= failure.is_incomplete_message();
        }
        next = cause.source();
    }
    if timed_out {
        ConnectorError::timeout(error)
    } else if io {
        ConnectorError::io(error)
    } else if cut_short {
        ConnectorError::other(error, Some(ErrorKind::TransientError))
    } else {
        ConnectorError::other(error, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_connections_and_timeouts_are_retried_other_failures_are_not() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert!(classify(Box::new(refused)).is_io());
        let slow = std::io::Error::from(std::io::ErrorKind::TimedOut);
        assert!(classify(Box::new(slow)).is_timeout());
        let odd = classify("an answer that is not HTTP".into());
        assert!(odd.is_other() && odd.as_other().is_none());
    }

    #[tokio::test]
    async fn a_request_to_a_closed_port_fails_as_io() {
        // A port nothing listens on: bound, then released.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .unwrap()
            .port();
        let connector = Connector::new((Some(Duration::from_secs(1)), None));
        let request = http::Request::builder()
            .uri(format!("http://127.0.0.1:{port}/"))
            .body(SdkBody::empty())
            .unwrap();
        let error = connector
            .call(HttpRequest::try_from(request).unwrap())
            .await
            .expect_err("nothing listens there");
        assert!(error.is_io(), "{error:?}");
    }

    #[tokio::test]
    async fn clients_with_the_same_timeouts_share_one_connector() {
        let pools = Pools::default();
        let usual = (Some(Duration::from_secs(3)), None);
        pools.connector(usual);
        pools.connector(usual);
        assert_eq!(pools.0.lock().unwrap().len(), 1);
        pools.connector((Some(Duration::from_secs(3)), Some(Duration::from_secs(1))));
        assert_eq!(pools.0.lock().unwrap().len(), 2);
    }
}
