//! The one HTTPS stack of every function, for AWS (`crate::aws_http`) and for Stripe: rustls over ring,
//! trusting Mozilla's root certificates compiled into the binary (webpki-roots), set up once per process.
//!
//! Reading the system's roots instead costs a cold start about 4 ms (measured with `local --bin
//! coldstart`): the bundle file and the certificate directory are read and every PEM block is decoded,
//! and the SDK's own connector did that again in each client it built. The compiled-in roots are already
//! parsed. They are the same root program the system bundles ship; a root store update comes with a
//! `cargo update` of webpki-roots instead of with the runtime's image.

use hyper_util::client::legacy::connect::HttpConnector;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

/// A connector that speaks TLS to https addresses and plain TCP to http ones (the local emulators).
pub type Connector = hyper_rustls::HttpsConnector<HttpConnector>;

/// The TLS settings every connection shares.
pub fn tls_config() -> Arc<rustls::ClientConfig> {
    static CONFIG: LazyLock<Arc<rustls::ClientConfig>> = LazyLock::new(|| {
        let roots = rustls::RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        };
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("ring offers TLS 1.2 and 1.3")
            .with_root_certificates(roots)
            .with_no_client_auth();
        Arc::new(config)
    });
    CONFIG.clone()
}

/// An HTTP/1.1 connector over `tls_config`; `connect_timeout` bounds the TCP connect.
pub fn connector(connect_timeout: Option<Duration>) -> Connector {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_nodelay(true);
    tcp.set_connect_timeout(connect_timeout);
    hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls_config().as_ref().clone())
        .https_or_http()
        .enable_http1()
        .wrap_connector(tcp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roots_are_built_in_and_set_up_once() {
        let config = tls_config();
        assert!(
            Arc::ptr_eq(&config, &tls_config()),
            "one set-up per process"
        );
        // Amazon's roots (every AWS endpoint) and the common public ones (Stripe) are among them.
        assert!(webpki_roots::TLS_SERVER_ROOTS.len() > 100);
        let amazon = webpki_roots::TLS_SERVER_ROOTS.iter().any(|root| {
            String::from_utf8_lossy(root.subject.as_ref()).contains("Amazon Root CA 1")
        });
        assert!(amazon, "Amazon Root CA 1 is trusted");
    }
}
