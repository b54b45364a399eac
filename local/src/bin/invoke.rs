//! `make invoke FN=catalog EVENT=list-products [SET='EMAIL=a@example.com ...']`: runs one function's router
//! with one event file against the running local shop (`PORT`, 3000 by default) and prints the response.
//!
//! `invoke <function> <event> [NAME=value ...]`

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, event, rest @ ..] = args.as_slice() else {
        eprintln!("usage: invoke <function> <event name or file> [NAME=value ...]");
        std::process::exit(2);
    };
    let set: Vec<(String, String)> = rest
        .iter()
        .flat_map(|arg| arg.split_whitespace())
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    let port = match std::env::var("PORT").ok().filter(|p| !p.is_empty()) {
        None => 3000,
        Some(port) => port.parse().unwrap_or_else(|_| {
            eprintln!("PORT must be a port number");
            std::process::exit(2)
        }),
    };
    match local::invoke::run(port, name, event, &set).await {
        Ok(response) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&response).expect("JSON prints")
            );
            if response["statusCode"].as_u64().is_some_and(|s| s >= 500) {
                std::process::exit(1);
            }
        }
        Err(error) => {
            eprintln!("invoke: {error}");
            std::process::exit(1);
        }
    }
}
