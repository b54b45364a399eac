//! DynamoDB's billing arithmetic on the wire format: an item's size by the published sizing rules, and the
//! read and write request units an operation is billed for (4 KB read steps, eventually consistent reads at
//! half, 1 KB write steps, transactions at double).

use serde_json::Value;

/// A read request unit covers this much of an item (strongly consistent; eventually consistent is half).
pub const READ_STEP: u64 = 4 * 1024;
/// A write request unit covers this much of an item.
pub const WRITE_STEP: u64 = 1024;

/// How a read is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    Eventual,
    Consistent,
    Transactional,
}

/// Read request units for reading `bytes` (an item, or a query's items together): whole 4 KB steps,
/// at least one, halved for an eventually consistent read and doubled in a transaction.
pub fn read_units(bytes: u64, read: Read) -> f64 {
    let steps = bytes.div_ceil(READ_STEP).max(1) as f64;
    match read {
        Read::Eventual => steps / 2.0,
        Read::Consistent => steps,
        Read::Transactional => steps * 2.0,
    }
}

/// Write request units for writing an item of `bytes`: whole 1 KB steps, at least one, doubled in a
/// transaction.
pub fn write_units(bytes: u64, transactional: bool) -> f64 {
    let steps = bytes.div_ceil(WRITE_STEP).max(1) as f64;
    if transactional {
        steps * 2.0
    } else {
        steps
    }
}

/// The size of an item in DynamoDB's JSON wire format (`{"name": {"S": "..."}}`): each attribute's name
/// in UTF-8 bytes plus its value's size.
pub fn item_size(item: &Value) -> u64 {
    item.as_object()
        .map(|attributes| {
            attributes
                .iter()
                .map(|(name, value)| name.len() as u64 + value_size(value))
                .sum()
        })
        .unwrap_or(0)
}

/// One attribute value's size: strings and binaries by their bytes, numbers by their digits (about one
/// byte per two significant digits, plus one), booleans and nulls one byte, lists and maps three bytes
/// plus one a member plus their members.
pub fn value_size(value: &Value) -> u64 {
    let Some((kind, inner)) = value.as_object().and_then(|o| o.iter().next()) else {
        return 0;
    };
    let text = |v: &Value| v.as_str().map_or(0, |s| s.len() as u64);
    // Binary values travel base64-encoded; DynamoDB counts the raw bytes.
    let binary = |v: &Value| v.as_str().map_or(0, |s| (s.len() as u64 * 3) / 4);
    match kind.as_str() {
        "S" => text(inner),
        "N" => number_size(inner.as_str().unwrap_or("0")),
        "B" => binary(inner),
        "BOOL" | "NULL" => 1,
        "SS" => each(inner).map(text).sum(),
        "NS" => each(inner)
            .map(|v| number_size(v.as_str().unwrap_or("0")))
            .sum(),
        "BS" => each(inner).map(binary).sum(),
        "L" => 3 + each(inner).map(|v| 1 + value_size(v)).sum::<u64>(),
        "M" => {
            3 + inner.as_object().map_or(0, |members| {
                members
                    .iter()
                    .map(|(name, v)| 1 + name.len() as u64 + value_size(v))
                    .sum()
            })
        }
        _ => 0,
    }
}

fn each(value: &Value) -> impl Iterator<Item = &Value> {
    value.as_array().into_iter().flatten()
}

fn number_size(number: &str) -> u64 {
    let digits = number
        .trim_start_matches('-')
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>();
    let significant = digits.trim_start_matches('0').trim_end_matches('0').len() as u64;
    significant.max(1).div_ceil(2) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_consistent_read_of_4_1_kb_is_two_units() {
        assert_eq!(read_units(4_199, Read::Consistent), 2.0);
        assert_eq!(read_units(4_096, Read::Consistent), 1.0);
    }

    #[test]
    fn an_eventually_consistent_read_of_3_kb_is_half_a_unit() {
        assert_eq!(read_units(3 * 1024, Read::Eventual), 0.5);
        assert_eq!(read_units(8 * 1024, Read::Eventual), 1.0);
    }

    #[test]
    fn a_missing_item_still_costs_the_smallest_read() {
        assert_eq!(read_units(0, Read::Eventual), 0.5);
        assert_eq!(read_units(0, Read::Consistent), 1.0);
    }

    #[test]
    fn a_write_of_1_5_kb_is_two_units_and_a_transaction_doubles_it() {
        assert_eq!(write_units(1_536, false), 2.0);
        assert_eq!(write_units(1_536, true), 4.0);
        assert_eq!(write_units(100, false), 1.0);
    }

    #[test]
    fn a_transactional_read_is_twice_a_consistent_one() {
        assert_eq!(read_units(5_000, Read::Transactional), 4.0);
    }

    #[test]
    fn an_item_is_sized_by_names_and_values() {
        // "pk" 2 + "PRODUCT#1" 9; "qty" 3 + 12 (2 significant digits: 1 + 1); "ok" 2 + 1.
        let item = json!({"pk": {"S": "PRODUCT#1"}, "qty": {"N": "12"}, "ok": {"BOOL": true}});
        assert_eq!(item_size(&item), 11 + 3 + 2 + 3);
        // A list of two strings: 3 + (1 + 1) + (1 + 2); its name 1.
        let list = json!({"l": {"L": [{"S": "a"}, {"S": "bc"}]}});
        assert_eq!(item_size(&list), 1 + 3 + 2 + 3);
    }

    #[test]
    fn a_2_kb_string_makes_a_three_unit_write() {
        let item = json!({"pk": {"S": "x"}, "body": {"S": "a".repeat(2_100)}});
        assert_eq!(write_units(item_size(&item), false), 3.0);
    }
}
