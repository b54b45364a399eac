//! Prints the API's OpenAPI document (`make openapi` writes it to docs/openapi.json), or with `--routes`
//! the map of routes (docs/routes.md).

fn main() {
    if std::env::args().any(|arg| arg == "--routes") {
        print!("{}", local::openapi::routes_text());
    } else {
        print!("{}", local::openapi::document_text());
    }
}
