//! The route table of a function. Each route is added once with its method, the spec's path and who may
//! call it; the table both builds the axum router (answering the path with and without its trailing
//! slash) and lists the routes, so a test can hold template.yaml and the routers in step.

use crate::error::message_response;
use axum::{
    handler::Handler,
    routing::{on, MethodFilter},
    Router,
};
use http::{Method, StatusCode};

/// Who may call a route. The handler's extractors enforce it; the table records it for the guard tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    Customer,
    Admin,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteSpec {
    pub method: Method,
    /// As the spec and template.yaml write it, e.g. `/api/product/update/{_id}`.
    pub path: &'static str,
    pub access: Access,
}

pub struct ApiRoutes<S> {
    router: Router<S>,
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
            router: Router::new(),
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
        H: Handler<T, S>,
        T: 'static,
    {
        let filter = MethodFilter::try_from(method.clone())
            .unwrap_or_else(|_| panic!("unsupported method {method} for {path}"));
        let bare = path.trim_end_matches('/');
        self.router = self
            .router
            .route(bare, on(filter, handler.clone()))
            .route(&format!("{bare}/"), on(filter, handler));
        self.specs.push(RouteSpec {
            method,
            path,
            access,
        });
        self
    }

    pub fn get<H: Handler<T, S>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::GET, path, access, handler)
    }

    pub fn post<H: Handler<T, S>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::POST, path, access, handler)
    }

    pub fn put<H: Handler<T, S>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::PUT, path, access, handler)
    }

    pub fn delete<H: Handler<T, S>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        self.route(Method::DELETE, path, access, handler)
    }

    pub fn specs(&self) -> &[RouteSpec] {
        &self.specs
    }

    pub fn into_router(self) -> Router<S> {
        self.router
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
            .get("/api/things/", Access::Public, || async { "list" })
            .delete("/api/things/delete/{id}", Access::Admin, || async {
                "gone"
            });
        assert_eq!(routes.specs().len(), 2);
        assert_eq!(routes.specs()[1].access, Access::Admin);
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
