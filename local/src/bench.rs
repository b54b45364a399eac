//! What the benchmark binaries share (`make bench`): their settings from the environment.

/// The number or figure the environment's `name` gives, else `default` (blank or unreadable is `default`).
pub fn setting<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}
