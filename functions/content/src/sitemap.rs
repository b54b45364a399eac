//! `/sitemap.xml`: the shop's public pages, every drink and every policy, built from the live tables so it
//! is never stale; and `/robots.txt`, which must name the sitemap by its absolute address (the static build
//! cannot know it). Absolute addresses come from `SITE_URL` alone, never from the request. CloudFront sends both to the API like `/api/*`; the local gateway serves them from this
//! same router.

use crate::entries::Policy;
use crate::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::header;
use shared::ApiResult;

/// The pages every sitemap lists, as the storefront's routes spell them.
const PAGES: &[&str] = &[
    "/",
    "/shop/drinks/",
    "/about/drinks-about-us",
    "/contact/drinks-contact/",
    "/drinks/review",
];

fn escape(text: &str) -> String {
    shared::mail::escape_html(text)
}

/// Areas a search engine has no business in: the admin area, the account pages, the checkout.
const PRIVATE: &[&str] = &["/new/uk/", "/account/", "/checkout", "/myorder/"];

pub async fn show_robots(State(state): State<AppState>) -> Response {
    // The configured address only: a Host or X-Forwarded-Host header must never reach a cached page.
    let base = &state.site_url;
    let mut text = String::from("User-agent: *\nAllow: /\n");
    for path in PRIVATE {
        text.push_str(&format!("Disallow: {path}\n"));
    }
    text.push_str(&format!("\nSitemap: {base}/sitemap.xml\n"));
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        text,
    )
        .into_response()
}

pub async fn show_sitemap(State(state): State<AppState>) -> ApiResult<Response> {
    let base = &state.site_url;
    let (drinks, policies) = tokio::join!(
        catalog::store::all_products(&state.db, &state.catalog_table),
        crate::entries::all::<Policy>(&state)
    );
    let mut urls: Vec<(String, Option<String>)> =
        PAGES.iter().map(|p| (format!("{base}{p}"), None)).collect();
    urls.extend(
        drinks?
            .into_iter()
            .map(|d| (format!("{base}/drinks/{}", d.id), Some(d.updated_at))),
    );
    urls.extend(policies?.into_iter().map(|p| {
        (
            format!("{base}/drinks/policies/{}", p.id),
            Some(p.updated_at),
        )
    }));
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (url, modified) in urls {
        xml.push_str(&format!("  <url><loc>{}</loc>", escape(&url)));
        if let Some(day) = modified.as_deref().and_then(|m| m.get(..10)) {
            xml.push_str(&format!("<lastmod>{day}</lastmod>"));
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    Ok((
        [
            (header::CONTENT_TYPE, "application/xml; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        xml,
    )
        .into_response())
}
