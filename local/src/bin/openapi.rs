//! Prints the API's OpenAPI document (`make openapi` writes it to docs/openapi.json).

fn main() {
    print!("{}", local::openapi::document_text());
}
