//! The route table of a function. Each route is added once with its method, the spec's path and who may
//! call it; the table both builds the axum router (answering the path with and without its trailing
//! slash) and lists the routes, so a test can hold template.yaml and the routers in step.

use crate::error::message_response;
/// A route as its table records it: kept beside the document it describes, named here for the functions.
pub use crate::openapi::{Access, RouteSpec};
use crate::openapi::{Doc, DocumentHandler, HeaderDoc};
use crate::rate::AddressLimit;
use axum::{
    handler::Handler,
    routing::{on, MethodFilter, MethodRouter},
    Router,
};
use http::{Method, StatusCode};

pub struct ApiRoutes<S> {
    /// One method router per spec, in the same order; `into_router` mounts them.
    methods: Vec<MethodRouter<S>>,
    specs: Vec<RouteSpec>,
}

impl<S: Clone + Send + Sync + 'static> Default for ApiRoutes<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: Clone + Send + Sync + 'static> ApiRoutes<S> {
    pub fn new() -> Self {
        ApiRoutes {
            methods: Vec::new(),
            specs: Vec::new(),
        }
    }

    pub fn route<H, T>(
        mut self,
        method: Method,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self
    where
        H: Handler<T, S> + DocumentHandler<T>,
        T: 'static,
    {
        let mut doc = Doc {
            handler: std::any::type_name::<H>(),
            ..Doc::default()
        };
        H::document(&mut doc);
        // The table's word and the handler's extractors must agree on who may call.
        let takes = doc.security.unwrap_or(Access::Public);
        assert!(
            takes == access || (access == Access::Customer && takes == Access::Admin),
            "{method} {path} is {access:?} but its handler {}",
            match takes {
                Access::Public => "takes no signed-in user".to_owned(),
                other => format!("takes {other:?}"),
            }
        );
        let filter = MethodFilter::try_from(method.clone())
            .unwrap_or_else(|_| panic!("unsupported method {method} for {path}"));
        self.methods.push(on(filter, handler));
        self.specs.push(RouteSpec {
            method,
            path,
            access,
            doc,
        });
        self
    }

    fn last_doc(&mut self) -> &mut Doc {
        &mut self
            .specs
            .last_mut()
            .expect("describe a route after adding it")
            .doc
    }

    /// Puts the route just added behind a limit per viewer address (shared::rate): its 429 is documented,
    /// and the router needs a `RateStore` extension.
    pub fn limit_per_address(mut self, limit: AddressLimit) -> Self {
        self.last_doc().rate_limited = true;
        let method = self.methods.pop().expect("limit a route after adding it");
        self.methods
            .push(method.route_layer(axum::middleware::from_fn_with_state(
                limit,
                crate::rate::limit_per_address,
            )));
        self
    }

    /// A line on what the route is for.
    pub fn summary(mut self, summary: &'static str) -> Self {
        self.last_doc().summary = Some(summary);
        self
    }

    /// Statuses the route answers with `{message}` beyond those its extractors bring.
    pub fn fails(mut self, statuses: &[u16]) -> Self {
        self.last_doc().errors.extend(statuses.iter().copied());
        self
    }

    /// A JSON success the handler builds by hand (its signature says `Response`).
    pub fn answers<T: schemars::JsonSchema>(
        mut self,
        status: u16,
        description: &'static str,
    ) -> Self {
        self.last_doc().json_reply::<T>(status, description);
        self
    }

    /// A success with no body (a redirect, a 204).
    pub fn answers_empty(mut self, status: u16, description: &'static str) -> Self {
        self.last_doc().reply(status, description, None);
        self
    }

    /// Edits the route's description where the helpers above do not reach (a multipart body, say).
    pub fn describe(mut self, edit: impl FnOnce(&mut Doc)) -> Self {
        edit(self.last_doc());
        self
    }

    /// The form the handler checks a path parameter against (a name that cannot exist is refused as such).
    pub fn path_pattern(mut self, name: &'static str, pattern: &'static str) -> Self {
        self.last_doc().path_patterns.push((name, pattern));
        self
    }

    /// A request header the route reads.
    pub fn header(self, name: &'static str, required: bool, description: &'static str) -> Self {
        self.header_doc(HeaderDoc {
            name,
            required,
            description,
            pattern: None,
        })
    }

    /// A request header the route reads, described fully (with the pattern the handler checks).
    pub fn header_doc(mut self, header: HeaderDoc) -> Self {
        self.last_doc().headers.push(header);
        self
    }

    pub fn get<H: Handler<T, S> + DocumentHandler<T>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::GET, path, access, handler)
    }

    pub fn post<H: Handler<T, S> + DocumentHandler<T>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::POST, path, access, handler)
    }

    pub fn put<H: Handler<T, S> + DocumentHandler<T>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::PUT, path, access, handler)
    }

    pub fn delete<H: Handler<T, S> + DocumentHandler<T>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::DELETE, path, access, handler)
    }

    /// The routes, each described; panics on one that says nothing of its success, which a test of every
    /// function's `routes()` turns into a failure.
    pub fn specs(&self) -> &[RouteSpec] {
        for spec in &self.specs {
            assert!(
                spec.doc.replies.iter().any(|reply| reply.status < 400),
                "{} {} says nothing of its success: its handler builds the reply by hand, so the route table must name it (answers or answers_empty)",
                spec.method,
                spec.path
            );
        }
        &self.specs
    }

    /// The router: each path answered with and without its trailing slash.
    pub fn into_router(self) -> Router<S> {
        self.specs
            .iter()
            .zip(self.methods)
            .fold(Router::new(), |router, (spec, method)| {
                let bare = spec.path.trim_end_matches('/');
                router
                    .route(bare, method.clone())
                    .route(&format!("{bare}/"), method)
            })
    }
}

/// JSON answers for unknown paths and methods. Added where a router faces the outside (the Lambda entry
/// point and the local gateway), not in each function's router, so routers can be merged.
pub fn with_json_fallbacks(router: Router) -> Router {
    router
        .fallback(|| async { message_response(StatusCode::NOT_FOUND, "Not found") })
        .method_not_allowed_fallback(|| async {
            message_response(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Json;
    use axum::body::Body;
    use http::Request;
    use tower::ServiceExt;

    async fn status(router: &Router, method: Method, uri: &str) -> StatusCode {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .body(Body::empty())
            .unwrap();
        router.clone().oneshot(request).await.unwrap().status()
    }

    #[tokio::test]
    async fn a_route_answers_with_and_without_its_trailing_slash() {
        let routes = ApiRoutes::<()>::new()
            .get("/api/things/", Access::Public, || async { Json("list") })
            .delete("/api/things/delete/{id}", Access::Public, || async {
                Json("gone")
            });
        assert_eq!(routes.specs().len(), 2);
        assert_eq!(routes.specs()[1].method, Method::DELETE);
        let router = with_json_fallbacks(routes.into_router());
        assert_eq!(
            status(&router, Method::GET, "/api/things/").await,
            StatusCode::OK
        );
        assert_eq!(
            status(&router, Method::GET, "/api/things").await,
            StatusCode::OK
        );
        assert_eq!(
            status(&router, Method::DELETE, "/api/things/delete/7/").await,
            StatusCode::OK
        );
        assert_eq!(
            status(&router, Method::GET, "/api/nothing").await,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            status(&router, Method::POST, "/api/things").await,
            StatusCode::METHOD_NOT_ALLOWED
        );
    }
}
