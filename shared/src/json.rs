//! The JSON body extractor and response. Every way a body can be wrong (not JSON, wrong type, missing
//! field, too large, wrong media type) becomes the same `{"message"}` shape as any other error, naming the
//! field where there is one.

use crate::error::{json_response, ApiError};
use axum::{
    extract::{FromRequest, Request},
    response::{IntoResponse, Response},
};
use http::{header, StatusCode};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// Largest body any JSON route accepts.
pub const MAX_JSON_BODY: usize = 1024 * 1024;

/// A JSON request body or response; rejections are `ApiError`s.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, _state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Send the body as JSON (Content-Type: application/json)",
            ));
        }
        let bytes = axum::body::to_bytes(request.into_body(), MAX_JSON_BODY)
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "The body is too large (at most 1 MiB)",
                )
            })?;
        parse(&bytes).map(Json)
    }
}

fn is_json(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json"
                || (mime.starts_with("application/") && mime.ends_with("+json"))
        })
        .unwrap_or(false)
}

/// Parses a JSON body, naming the field that is wrong.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad_request(
            "The body is empty: send a JSON object",
        ));
    }
    // serde reads a struct from a list of its fields in order too; every body of this API is an object.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(ApiError::bad_request(
            "The body does not fit: send a JSON object, not a list",
        ));
    }
    let mut tree: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|error| ApiError::bad_request(format!("The body is not valid JSON: {error}")))?;
    whole_floats_as_integers(&mut tree);
    serde_path_to_error::deserialize(tree).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if path.is_empty() || path == "." {
            ApiError::bad_request(format!("The body does not fit: {}", strip_position(&inner)))
        } else {
            ApiError::bad_request(format!("{path}: {}", strip_position(&inner)))
        }
    })
}

/// `5.0` is the integer 5 in JSON (and to JSON Schema, which the OpenAPI document speaks): a client that
/// writes whole numbers as floats is read as it meant. serde alone refuses `5.0` for an integer field.
fn whole_floats_as_integers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or(f64::NAN);
            // Within ±2^63 every whole float converts exactly.
            if float.fract() == 0.0 && float.abs() < 9.2e18 {
                *value = serde_json::Value::from(float as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(whole_floats_as_integers),
        serde_json::Value::Object(map) => map.values_mut().for_each(whole_floats_as_integers),
        _ => {}
    }
}

/// serde_json appends "at line 1 column 12": noise for a person reading the message.
fn strip_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match serde_json::to_vec(&self.0) {
            Ok(body) => json_response(StatusCode::OK, body),
            Err(error) => ApiError::internal(error).into_response(),
        }
    }
}

/// 201 with a JSON body, as a reply type the route table can read.
#[derive(Debug, Clone)]
pub struct Created<T>(pub T);

impl<T: Serialize> IntoResponse for Created<T> {
    fn into_response(self) -> Response {
        created(self.0)
    }
}

/// 201 with a JSON body.
pub fn created<T: Serialize>(value: T) -> Response {
    let mut response = Json(value).into_response();
    if response.status() == StatusCode::OK {
        *response.status_mut() = StatusCode::CREATED;
    }
    response
}

/// A value read only from a JSON object: serde would also read a struct from a JSON list of its fields in
/// order, which the API document does not allow. The fields are read straight from the object, so an error
/// inside still names its path (`payment.number: ...`). Its schema is T's. For a required field,
/// `#[serde(deserialize_with = "shared::json::object")]` (or `objects`) keeps the field's own type; an
/// optional one is `Option<Object<T>>`.
#[derive(Debug, Default)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);

        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Fields<T> {
            type Value = T;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }

        deserializer
            .deserialize_map(Fields(std::marker::PhantomData))
            .map(Object)
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Object<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// For a required field holding an object: `#[serde(deserialize_with = "shared::json::object")]`.
pub fn object<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Object::deserialize(deserializer).map(|Object(value)| value)
}

/// `object` for a list of objects.
pub fn objects<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Vec::<Object<T>>::deserialize(deserializer)
        .map(|items| items.into_iter().map(|Object(value)| value).collect())
}

/// For an update's `Option<Option<T>>` field: absent is `None` (leave it), `null` is `Some(None)` (clear
/// it), a value is `Some(Some(v))`. Serde's own reading makes `null` absent, so a limit could never be
/// cleared. Use with `#[serde(default, deserialize_with = "shared::json::present")]`.
pub fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A reply that is only words: `{"message": "..."}`, as every error is too.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Message {
    pub message: String,
}

impl Message {
    pub fn new(message: impl Into<String>) -> Json<Message> {
        Json(Message {
            message: message.into(),
        })
    }
}

/// A number as JSON or as the text a form field holds.
#[derive(Debug, Clone, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum NumberField {
    Number(f64),
    Text(String),
}

/// The document's view of a `NumberField` read with `whole(MAX)`: a whole number from MIN (0 or 1) to MAX,
/// as a JSON number or as its text (the text's grammar is the subset of Rust's float syntax that names such a
/// number: digits, an optional `+`, leading zeros, a fraction of zeros).
pub struct WholeNumber<const MIN: u32, const MAX: u32>;

impl<const MIN: u32, const MAX: u32> schemars::JsonSchema for WholeNumber<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("WholeNumber_{MIN}_{MAX}").into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": format!("A whole number from {MIN} to {MAX}, as a number or as text."),
            "anyOf": [
                { "type": "integer", "minimum": MIN, "maximum": MAX },
                { "type": "string", "pattern": whole_number_pattern(MIN, MAX) }
            ]
        })
    }
}

/// A pattern for the text of a whole number from `min` (0 or 1) to `max`: after leading zeros, a number of
/// fewer digits than `max`, or of as many whose first smaller digit comes after a common prefix, or `max`.
pub fn whole_number_pattern(min: u32, max: u32) -> String {
    let digits: Vec<u32> = max
        .to_string()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    let k = digits.len();
    let mut options: Vec<String> = Vec::new();
    if min == 0 {
        options.push("0".to_owned());
    }
    if k > 1 {
        options.push(format!("[1-9][0-9]{{0,{}}}", k - 2));
    }
    for (i, digit) in digits.iter().enumerate() {
        let lowest = u32::from(i == 0);
        if *digit > lowest {
            let prefix: String = digits[..i].iter().map(u32::to_string).collect();
            let rest = match k - i - 1 {
                0 => String::new(),
                n => format!("[0-9]{{{n}}}"),
            };
            options.push(format!("{prefix}[{lowest}-{}]{rest}", digit - 1));
        }
    }
    options.push(max.to_string());
    format!(r"^\s*\+?0*({})(\.0*)?\s*$", options.join("|"))
}

/// The document's view of a price read with `Pence::from_pounds`: above 0, at most two decimals and
/// ten million pounds, as a JSON number or as its text.
pub struct PriceField;

impl schemars::JsonSchema for PriceField {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PriceField".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Pounds above 0 with at most two decimals, as a number or as text.",
            "anyOf": [
                { "type": "number", "exclusiveMinimum": 0, "maximum": 10_000_000, "multipleOf": 0.01 },
                { "type": "string", "pattern": PRICE_PATTERN }
            ]
        })
    }
}

/// Pounds above 0 as text: up to seven whole digits and two decimals, or ten million, or pence alone.
pub const PRICE_PATTERN: &str =
    r"^\s*\+?0*([1-9][0-9]{0,6}(\.[0-9]{0,2})?|10000000(\.0{0,2})?|0?\.(0[1-9]|[1-9][0-9]?))\s*$";

impl NumberField {
    pub fn value(&self, field: &str) -> Result<f64, ApiError> {
        match self {
            NumberField::Number(n) => Ok(*n),
            NumberField::Text(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| ApiError::invalid(format!("{field} must be a number"))),
        }
    }

    pub fn whole(&self, field: &str, max: u32) -> Result<u32, ApiError> {
        let value = self.value(field)?;
        if value.fract() != 0.0 || value < 0.0 || value > f64::from(max) {
            return Err(ApiError::invalid(format!(
                "{field} must be a whole number from 0 to {max}"
            )));
        }
        Ok(value as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Drink {
        name: String,
        price: f64,
    }

    #[test]
    fn malformed_json_is_named_as_such() {
        let err = parse::<Drink>(b"{\"name\": ").unwrap_err();
        assert_eq!(err.status(), StatusCode::BAD_REQUEST);
        assert!(err.message().starts_with("The body is not valid JSON"));
    }

    #[test]
    fn a_wrong_type_names_the_field() {
        let err = parse::<Drink>(br#"{"name": "Cola", "price": "cheap"}"#).unwrap_err();
        assert_eq!(err.status(), StatusCode::BAD_REQUEST);
        assert!(
            err.message().starts_with("price: invalid type"),
            "{}",
            err.message()
        );
        assert!(!err.message().contains("line 1"));
    }

    #[test]
    fn a_missing_field_is_named() {
        let err = parse::<Drink>(br#"{"price": 1.5}"#).unwrap_err();
        assert!(
            err.message().contains("missing field `name`"),
            "{}",
            err.message()
        );
    }

    #[test]
    fn an_empty_body_is_a_bad_request() {
        assert_eq!(
            parse::<Drink>(b"  ").unwrap_err().status(),
            StatusCode::BAD_REQUEST
        );
    }

    #[test]
    fn a_whole_float_is_read_as_an_integer_and_a_fraction_is_not() {
        #[derive(Debug, serde::Deserialize)]
        struct Limit {
            uses: u32,
        }
        assert_eq!(parse::<Limit>(br#"{"uses": 5.0}"#).unwrap().uses, 5);
        assert_eq!(parse::<Limit>(br#"{"uses": 5e2}"#).unwrap().uses, 500);
        let err = parse::<Limit>(br#"{"uses": 5.5}"#).unwrap_err();
        assert!(
            err.message().starts_with("uses: invalid type"),
            "{}",
            err.message()
        );
        let err = parse::<Limit>(br#"{"uses": 100000000000.0}"#).unwrap_err();
        assert!(
            err.message().starts_with("uses: invalid value"),
            "{}",
            err.message()
        );
    }

    #[test]
    fn trailing_garbage_is_rejected() {
        assert!(parse::<Drink>(br#"{"name": "Cola", "price": 1} x"#).is_err());
    }

    #[test]
    fn json_media_types_are_recognised() {
        let mut headers = http::HeaderMap::new();
        headers.insert(
            header::CONTENT_TYPE,
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert!(is_json(&headers));
        headers.insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
        assert!(!is_json(&headers));
    }
}

#[cfg(test)]
mod number_schemas {
    use super::*;

    /// The pattern and `NumberField::whole` agree on every number around the bounds, in several spellings.
    #[test]
    fn whole_number_patterns_accept_what_whole_accepts() {
        for (min, max) in [
            (0, 100),
            (1, 100),
            (0, 1_000_000),
            (1, 1000),
            (0, 9),
            (0, 250),
        ] {
            let pattern = regex_lite::Regex::new(&whole_number_pattern(min, max)).unwrap();
            for n in 0..=(max + 20).min(3_000) {
                for text in [n.to_string(), format!(" 0{n}.0 "), format!("+{n}.")] {
                    let accepted =
                        NumberField::Text(text.clone()).whole("n", max).is_ok() && n >= min;
                    assert_eq!(pattern.is_match(&text), accepted, "{min}..={max}: {text:?}");
                }
            }
            for text in ["", "-1", "1.5", "abc", " ", "1e2"] {
                assert!(!pattern.is_match(text), "{text:?}");
            }
            let above = (max + 1).to_string();
            assert!(!pattern.is_match(&above), "{above}");
        }
    }

    #[test]
    fn the_price_pattern_accepts_what_from_pounds_accepts_above_zero() {
        let pattern = regex_lite::Regex::new(PRICE_PATTERN).unwrap();
        for text in [
            "4.99", "0.01", "0.5", ".5", "10", "10.", "007.10", " 1.5 ", "+2", "10000000",
        ] {
            assert!(pattern.is_match(text), "{text:?}");
            let pounds = NumberField::Text(text.into()).value("price").unwrap();
            let pence = crate::money::Pence::from_pounds(pounds).unwrap();
            assert!(pence > crate::money::Pence::ZERO, "{text:?}");
        }
        for text in ["0", "0.00", "1.234", "-1", "abc", "", "10000001", "1e2"] {
            assert!(!pattern.is_match(text), "{text:?}");
        }
    }
}

#[cfg(test)]
mod objects_only {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Line {
        #[allow(dead_code)]
        product: String,
    }

    #[derive(Debug, Deserialize)]
    struct Order {
        #[serde(deserialize_with = "objects")]
        #[allow(dead_code)]
        lines: Vec<Line>,
        #[allow(dead_code)]
        first: Option<Object<Line>>,
    }

    #[test]
    fn a_list_where_an_object_belongs_is_refused_at_any_depth() {
        let top = parse::<Order>(br#"[[{"product": "p"}]]"#).unwrap_err();
        assert_eq!(top.status(), 400);
        assert!(top.message().contains("not a list"), "{}", top.message());

        let nested = parse::<Order>(br#"{"lines": [["p"]]}"#).unwrap_err();
        assert!(
            nested.message().starts_with("lines[0]"),
            "{}",
            nested.message()
        );
        let optional = parse::<Order>(br#"{"lines": [], "first": ["p"]}"#).unwrap_err();
        assert!(
            optional.message().starts_with("first"),
            "{}",
            optional.message()
        );

        let inner = parse::<Order>(br#"{"lines": [{"product": 5}]}"#).unwrap_err();
        assert!(
            inner.message().starts_with("lines[0].product"),
            "{}",
            inner.message()
        );
        assert!(parse::<Order>(br#"{"lines": [{"product": "p"}], "first": null}"#).is_ok());
    }
}
