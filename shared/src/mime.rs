//! Raw MIME messages: how a mail that carries its own headers (RFC 8058's `List-Unsubscribe`) goes to SES,
//! whose simple send has no place for them in every SDK and emulator. `build` writes a multipart/alternative
//! message with base64 parts (7-bit safe whatever the text); `parse` reads one back, for the local outbox and
//! the tests.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

/// A message as written or read: its headers in order, and the text and HTML parts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parsed {
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub html: String,
}

impl Parsed {
    /// The first header of that name, ignoring case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a raw message needs.
pub struct Envelope<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub reply_to: Option<&'a str>,
    pub subject: &'a str,
    pub text: &'a str,
    pub html: &'a str,
    /// Extra headers, written as given; a name or value with a line break is dropped (header injection).
    pub headers: &'a [(String, String)],
}

/// A header value as RFC 2047 wants it: ASCII as is, anything else as a base64 encoded-word.
fn encode_word(value: &str) -> String {
    if value.is_ascii() {
        value.to_owned()
    } else {
        format!("=?UTF-8?B?{}?=", STANDARD.encode(value.as_bytes()))
    }
}

fn safe(text: &str) -> bool {
    !text.contains(['\r', '\n'])
}

fn base64_lines(data: &str) -> String {
    let encoded = STANDARD.encode(data.as_bytes());
    let mut out = String::with_capacity(encoded.len() + encoded.len() / 76 * 2 + 2);
    for chunk in encoded.as_bytes().chunks(76) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push_str("\r\n");
    }
    out
}

/// The whole message, CRLF line ends. `boundary` must not occur in the parts (base64 never contains `=_`).
pub fn build(envelope: &Envelope<'_>, boundary: &str) -> String {
    let mut out = String::new();
    let mut header = |name: &str, value: &str| {
        if safe(name) && safe(value) && !name.is_empty() {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
    };
    header("From", envelope.from);
    header("To", envelope.to);
    if let Some(reply_to) = envelope.reply_to {
        header("Reply-To", reply_to);
    }
    header("Subject", &encode_word(envelope.subject));
    header("MIME-Version", "1.0");
    for (name, value) in envelope.headers {
        header(name, &encode_word(value));
    }
    header(
        "Content-Type",
        &format!("multipart/alternative; boundary=\"{boundary}\""),
    );
    out.push_str("\r\n");
    for (kind, body) in [("plain", envelope.text), ("html", envelope.html)] {
        out.push_str(&format!(
            "--{boundary}\r\nContent-Type: text/{kind}; charset=UTF-8\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}",
            base64_lines(body)
        ));
    }
    out.push_str(&format!("--{boundary}--\r\n"));
    out
}

/// Headers of a block, unfolded, with encoded-words decoded.
fn read_headers(block: &str) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        let line = line.trim_end_matches('\r');
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    for (_, value) in &mut headers {
        *value = decode_words(value);
    }
    headers
}

fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("=?") {
        out.push_str(&rest[..start]);
        let word = &rest[start + 2..];
        let decoded = word.split_once("?=").and_then(|(inner, after)| {
            let mut parts = inner.splitn(3, '?');
            let (_charset, encoding, data) = (parts.next()?, parts.next()?, parts.next()?);
            let bytes = if encoding.eq_ignore_ascii_case("B") {
                STANDARD.decode(data).ok()?
            } else {
                data.replace('_', " ").into_bytes()
            };
            Some((String::from_utf8_lossy(&bytes).into_owned(), after))
        });
        match decoded {
            Some((text, after)) => {
                out.push_str(&text);
                rest = after;
            }
            None => {
                out.push_str("=?");
                rest = word;
            }
        }
    }
    out.push_str(rest);
    out
}

fn split_head(text: &str) -> (&str, &str) {
    if let Some(at) = text.find("\r\n\r\n") {
        (&text[..at], &text[at + 4..])
    } else if let Some(at) = text.find("\n\n") {
        (&text[..at], &text[at + 2..])
    } else {
        (text, "")
    }
}

fn decode_body(headers: &[(String, String)], body: &str) -> String {
    let base64 = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("Content-Transfer-Encoding") && v.eq_ignore_ascii_case("base64")
    });
    if base64 {
        let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
        STANDARD
            .decode(compact)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default()
    } else {
        body.trim_end().to_owned()
    }
}

fn content_type(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("Content-Type"))
        .map(|(_, v)| v.to_ascii_lowercase())
        .unwrap_or_else(|| "text/plain".to_owned())
}

/// Reads a message written by `build` (or any simple multipart/alternative or single-part message).
pub fn parse(raw: &str) -> Parsed {
    let (head, body) = split_head(raw);
    let headers = read_headers(head);
    let kind = content_type(&headers);
    let mut parsed = Parsed {
        headers,
        ..Parsed::default()
    };
    let boundary = parsed
        .header("Content-Type")
        .and_then(|v| v.split("boundary=").nth(1))
        .map(|b| {
            b.split(';')
                .next()
                .unwrap_or(b)
                .trim()
                .trim_matches('"')
                .to_owned()
        });
    match boundary {
        Some(boundary) if kind.starts_with("multipart/") => {
            let marker = format!("--{boundary}");
            for part in body.split(&marker).skip(1) {
                if part.starts_with("--") {
                    break;
                }
                let part = part.trim_start_matches(['\r', '\n']);
                let (part_head, part_body) = split_head(part);
                let part_headers = read_headers(part_head);
                let text = decode_body(&part_headers, part_body);
                if content_type(&part_headers).starts_with("text/html") {
                    parsed.html = text;
                } else {
                    parsed.text = text;
                }
            }
        }
        _ => {
            let text = decode_body(&parsed.headers, body);
            if kind.starts_with("text/html") {
                parsed.html = text;
            } else {
                parsed.text = text;
            }
        }
    }
    parsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_reads_back_as_written() {
        let headers =
            vec![
            (
                "List-Unsubscribe".to_owned(),
                "<https://shop.example/u?token=a.b>, <mailto:shop@example.com?subject=unsubscribe>"
                    .to_owned(),
            ),
            (
                "List-Unsubscribe-Post".to_owned(),
                "List-Unsubscribe=One-Click".to_owned(),
            ),
            ("X-Evil".to_owned(), "a\r\nBcc: victim@example.com".to_owned()),
        ];
        let raw = build(
            &Envelope {
                from: "shop@example.com",
                to: "layla@example.com",
                reply_to: None,
                subject: "Summer drinks · £2 off",
                text: "Hello Layla,\nno £ lost",
                html: "<p>Hello <b>Layla</b></p>",
                headers: &headers,
            },
            "=_b0undary",
        );
        assert!(raw.is_ascii(), "the raw message is 7-bit");
        assert!(
            !raw.contains("Bcc:"),
            "a header with a line break is dropped"
        );
        let parsed = parse(&raw);
        assert_eq!(parsed.header("subject"), Some("Summer drinks · £2 off"));
        assert_eq!(parsed.header("To"), Some("layla@example.com"));
        assert_eq!(
            parsed.header("List-Unsubscribe-Post"),
            Some("List-Unsubscribe=One-Click")
        );
        assert_eq!(
            parsed.header("List-Unsubscribe"),
            Some(headers[0].1.as_str())
        );
        assert_eq!(parsed.text, "Hello Layla,\nno £ lost");
        assert_eq!(parsed.html, "<p>Hello <b>Layla</b></p>");
    }

    #[test]
    fn folded_and_single_part_messages_parse() {
        let parsed =
            parse("Subject: a\r\n  long one\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n");
        assert_eq!(parsed.header("Subject"), Some("a long one"));
        assert_eq!(parsed.html, "<p>x</p>");
    }
}
