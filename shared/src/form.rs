//! `application/x-www-form-urlencoded`, as Stripe's API (and localstripe) read request bodies.

/// Percent-encodes everything but the unreserved characters.
pub fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `k=v&k=v`, keys written by the caller (Stripe's `metadata[order_id]` style).
pub fn encode(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_and_values_are_escaped() {
        assert_eq!(
            super::encode(&[("metadata[order_id]", "a b&c"), ("amount", "499")]),
            "metadata%5Border_id%5D=a%20b%26c&amount=499"
        );
    }
}
