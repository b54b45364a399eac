//! What a drink's price tells a shopper, as the law checks it: the unit price per litre from the pack label
//! (Price Marking Order 2004), promotions that run between two dates, every change of price recorded, and a
//! "was" price only where it is genuine (DMCC Act 2024, unfair commercial practices; the CMA's pricing
//! guidance): the drink sold at that price for at least 28 days, within the last six months, right before
//! the reduction. Pure functions of the recorded history and the time, so the rule is tested on its own.
//!
//! Promotion dates are UK calendar days: a promotion runs from midnight (London time) at the start of its
//! first day to midnight at the end of its last.

use serde::Serialize;
use shared::money::{Pence, Percent};
use time::{Date, Duration, Month, OffsetDateTime, Weekday};

/// How long a price must have been charged before a reduction for it to be shown as the "was" price.
pub const REFERENCE_DAYS: i64 = 28;
/// How far back that reference period may lie: six months, counted as 183 days.
pub const LOOKBACK_DAYS: i64 = 183;
/// Changes kept per drink: years of weekly changes, well within an item's size, and far beyond the months
/// the rule looks back.
pub const MAX_CHANGES: usize = 500;

const DAY: i64 = 24 * 60 * 60;

/// The millilitres in a pack from its label: "24 x 330ml" → 7,920, "6 × 1.5 L" → 9,000, "330ml" → 330,
/// "75cl" → 750. `None` when the label names no size, so no unit price can be worked out.
pub fn pack_millilitres(label: &str) -> Option<u64> {
    let lower = label.to_lowercase().replace('×', "x");
    let size_at = lower.find(|c: char| c.is_ascii_digit())?;
    let (count, rest) = match lower[size_at..].split_once('x') {
        Some((count, rest)) if count.trim().parse::<u32>().is_ok() => {
            (count.trim().parse::<u32>().ok()?, rest.trim())
        }
        _ => (1, lower[size_at..].trim()),
    };
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let amount: f64 = digits.parse().ok()?;
    let unit = rest[digits.len()..].trim_start();
    let word = unit
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    let per_unit = match word {
        "ml" => amount,
        "cl" => amount * 10.0,
        "l" | "litre" | "litres" | "liter" | "liters" | "ltr" => amount * 1000.0,
        _ => return None,
    };
    let total = (per_unit * f64::from(count)).round();
    (total >= 1.0 && total.is_finite()).then_some(total as u64)
}

/// The price of a litre at `price` for the pack `label` names, rounded half-up to the penny.
pub fn price_per_litre(price: Pence, label: &str) -> Option<Pence> {
    let ml = i128::from(pack_millilitres(label)?);
    let pence = i128::from(price.pence());
    let per_litre = (2 * pence * 1000 + ml) / (2 * ml);
    Pence::new(i64::try_from(per_litre).ok()?).ok()
}

/// A promotion's days, both ends included; `None` at an end: since ever (a promotion saved before dates
/// were kept) or until the admin ends it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Promotion {
    pub start: Option<Date>,
    pub end: Option<Date>,
}

impl Promotion {
    /// Whether the promotion runs at `at` (unix seconds).
    pub fn covers(&self, at: i64) -> bool {
        self.start.is_none_or(|day| at >= uk_midnight(day))
            && self
                .end
                .is_none_or(|day| at < uk_midnight(day.next_day().unwrap_or(day)))
    }

    /// The instants the promotion starts and stops, where it has them.
    fn edges(&self) -> impl Iterator<Item = i64> {
        let start = self.start.map(uk_midnight);
        let end = self
            .end
            .map(|day| uk_midnight(day.next_day().unwrap_or(day)));
        start.into_iter().chain(end)
    }
}

/// A date as the API writes it, `2026-04-01`.
pub fn format_date(day: Date) -> String {
    format!(
        "{:04}-{:02}-{:02}",
        day.year(),
        u8::from(day.month()),
        day.day()
    )
}

/// `2026-04-01` as a date; anything else is `None`.
pub fn parse_date(text: &str) -> Option<Date> {
    let mut parts = text.trim().splitn(3, '-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    Date::from_calendar_date(
        year.parse().ok()?,
        Month::try_from(month.parse::<u8>().ok()?).ok()?,
        day.parse().ok()?,
    )
    .ok()
}

/// The last Sunday of a month (British Summer Time starts and ends on one).
fn last_sunday(year: i32, month: Month) -> Option<Date> {
    let mut day =
        Date::from_calendar_date(year, month, time::util::days_in_month(month, year)).ok()?;
    while day.weekday() != Weekday::Sunday {
        day = day.previous_day()?;
    }
    Some(day)
}

/// Unix seconds of midnight at the start of `day` in the UK: an hour before midnight UTC in British Summer
/// Time (from the last Sunday of March, 01:00 UTC, to the last Sunday of October, 01:00 UTC), so a midnight
/// falls in summer time from the day after March's last Sunday to October's last Sunday.
pub fn uk_midnight(day: Date) -> i64 {
    let utc = day.midnight().assume_utc().unix_timestamp();
    let summer = match (
        last_sunday(day.year(), Month::March),
        last_sunday(day.year(), Month::October),
    ) {
        (Some(from), Some(to)) => day > from && day <= to,
        _ => false,
    };
    if summer {
        utc - 3600
    } else {
        utc
    }
}

/// The UK calendar day `at` (unix seconds) falls on.
pub fn uk_day(at: i64) -> Date {
    let utc = OffsetDateTime::from_unix_timestamp(at)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .date();
    match utc.next_day() {
        Some(next) if at >= uk_midnight(next) => next,
        _ => utc,
    }
}

/// One saved state of a drink's pricing, in force from `at` until the next: its list price and the
/// promotion then set. Every save that changes the price, the discount or the promotion's dates records one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceChange {
    /// Unix seconds.
    pub at: i64,
    pub price: Pence,
    pub discount: Percent,
    pub promotion: Promotion,
}

impl PriceChange {
    /// What a shopper paid for the drink at `at` under this state.
    pub fn price_at(&self, at: i64) -> Pence {
        if self.discount.value() > 0 && self.promotion.covers(at) {
            self.price.less_percent(self.discount)
        } else {
            self.price
        }
    }

    /// Whether `other` prices the drink differently (so saving it is a change of price to record).
    pub fn same_terms(&self, other: &PriceChange) -> bool {
        self.price == other.price
            && self.discount == other.discount
            && self.promotion == other.promotion
    }
}

/// A run of time over which the drink sold at one price.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub from: i64,
    pub price: Pence,
}

/// The prices the drink sold at from its first recorded change up to `now`, as runs of one price each,
/// oldest first: each recorded state, cut where its promotion starts or stops.
pub fn segments(history: &[PriceChange], now: i64) -> Vec<Segment> {
    let mut runs: Vec<Segment> = Vec::new();
    for (index, change) in history.iter().enumerate() {
        if change.at > now {
            break;
        }
        let until = history.get(index + 1).map_or(now, |next| next.at.min(now));
        let mut moments: Vec<i64> = std::iter::once(change.at)
            .chain(
                change
                    .promotion
                    .edges()
                    .filter(|t| *t > change.at && *t <= until),
            )
            .collect();
        moments.sort_unstable();
        for from in moments {
            let price = change.price_at(from);
            match runs.last() {
                Some(last) if last.price == price => {}
                _ => runs.push(Segment { from, price }),
            }
        }
    }
    runs
}

/// The "was" price a drink may show, and why, in words for the admin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct WasPrice {
    /// The genuine earlier price, or `null` when none may be shown.
    #[serde(rename = "wasPrice")]
    pub price: Option<Pence>,
    /// Why it is shown, or why not.
    pub reason: String,
}

fn day_text(at: i64) -> String {
    let day = uk_day(at);
    format!("{} {} {}", day.day(), day.month(), day.year())
}

/// Applies the rule to the recorded history at `now` (unix seconds).
pub fn was_price(history: &[PriceChange], now: i64) -> WasPrice {
    let not_shown = |reason: String| WasPrice {
        price: None,
        reason,
    };
    let runs = segments(history, now);
    let (previous, current) = match runs.as_slice() {
        [] => {
            return not_shown(
                "No price is recorded for this drink yet: a was price needs the record of the price it replaced."
                    .to_owned(),
            )
        }
        [.., previous, current] => (*previous, *current),
        [only] => {
            return not_shown(format!(
                "The price has been {} since {}: there is no reduction to show.",
                only.price,
                day_text(only.from)
            ))
        }
    };
    if previous.price <= current.price {
        return not_shown(format!(
            "The price went from {} to {} on {}: that is no reduction.",
            previous.price,
            current.price,
            day_text(current.from)
        ));
    }
    let held_days = (current.from - previous.from) / DAY;
    if current.from - previous.from < REFERENCE_DAYS * DAY {
        return not_shown(format!(
            "{} was charged for {} days before the reduction on {} ({} recorded from {}): a was price needs \
             {REFERENCE_DAYS} days at that price.",
            previous.price,
            held_days,
            day_text(current.from),
            previous.price,
            day_text(previous.from)
        ));
    }
    if current.from - REFERENCE_DAYS * DAY < now - LOOKBACK_DAYS * DAY {
        return not_shown(format!(
            "The reduction from {} was on {}: the {REFERENCE_DAYS} days at {} before it are no longer all \
             within the last six months.",
            previous.price,
            day_text(current.from),
            previous.price
        ));
    }
    WasPrice {
        price: Some(previous.price),
        reason: format!(
            "Shown: {} was charged from {} until the reduction on {} ({} days).",
            previous.price,
            day_text(previous.from),
            day_text(current.from),
            held_days
        ),
    }
}

/// Adds `change` to `history` when it prices the drink differently from the last recorded state, keeping
/// the newest `MAX_CHANGES`.
pub fn record(history: &mut Vec<PriceChange>, change: PriceChange) {
    if history.last().is_some_and(|last| last.same_terms(&change)) {
        return;
    }
    history.push(change);
    if history.len() > MAX_CHANGES {
        let extra = history.len() - MAX_CHANGES;
        history.drain(..extra);
    }
}

/// `days` days in seconds, for callers building times.
pub fn days(days: i64) -> i64 {
    Duration::days(days).whole_seconds()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn p(pence: i64) -> Pence {
        Pence::new(pence).unwrap()
    }

    fn change(at: i64, price: i64, discount: f64, promotion: Promotion) -> PriceChange {
        PriceChange {
            at,
            price: p(price),
            discount: Percent::new(discount).unwrap(),
            promotion,
        }
    }

    const NOW: i64 = 1_790_000_000; // 21 September 2026, 14:13 UTC

    #[test]
    fn pack_labels_give_their_volume_and_a_price_per_litre() {
        assert_eq!(pack_millilitres("24 x 330ml"), Some(7_920));
        assert_eq!(pack_millilitres("6 × 1.5 L"), Some(9_000));
        assert_eq!(pack_millilitres("12x500 ml cans"), Some(6_000));
        assert_eq!(pack_millilitres("330ml"), Some(330));
        assert_eq!(pack_millilitres("Case of 75cl"), Some(750));
        assert_eq!(pack_millilitres("2 litres"), Some(2_000));
        assert_eq!(pack_millilitres("a case"), None);
        assert_eq!(pack_millilitres("24 x big"), None);
        // £17.99 for 7.92 litres is £2.2714… a litre.
        assert_eq!(price_per_litre(p(1799), "24 x 330ml"), Some(p(227)));
        // £0.99 for 330 ml: £3.0 a litre exactly; half-up elsewhere (£1.25 for 2 l is 62.5p: 63p).
        assert_eq!(price_per_litre(p(99), "330ml"), Some(p(300)));
        assert_eq!(price_per_litre(p(125), "2 l"), Some(p(63)));
        assert_eq!(price_per_litre(p(125), "a case"), None);
    }

    #[test]
    fn dates_are_uk_days() {
        assert_eq!(parse_date("2026-04-01"), Some(date!(2026 - 04 - 01)));
        for bad in ["2026-4-1", "2026-02-30", "01-04-2026", "tomorrow", ""] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
        assert_eq!(format_date(date!(2026 - 04 - 01)), "2026-04-01");
        // Winter: midnight in London is midnight UTC; summer: 23:00 UTC the day before.
        assert_eq!(uk_midnight(date!(2026 - 01 - 10)), 1_768_003_200);
        assert_eq!(uk_midnight(date!(2026 - 07 - 10)), 1_783_638_000);
        // BST 2026 runs from 29 March to 25 October: the 29th's midnight is still GMT, the 25th's is BST.
        assert_eq!(uk_midnight(date!(2026 - 03 - 29)), 1_774_742_400);
        assert_eq!(uk_midnight(date!(2026 - 10 - 25)), 1_792_882_800);
        assert_eq!(uk_day(1_783_638_000), date!(2026 - 07 - 10));
        assert_eq!(uk_day(1_783_638_000 - 1), date!(2026 - 07 - 09));
    }

    #[test]
    fn a_promotion_runs_between_its_days_both_included() {
        let promotion = Promotion {
            start: Some(date!(2026 - 09 - 20)),
            end: Some(date!(2026 - 09 - 21)),
        };
        let state = change(0, 1000, 10.0, promotion);
        assert_eq!(
            state.price_at(uk_midnight(date!(2026 - 09 - 20)) - 1),
            p(1000)
        );
        assert_eq!(state.price_at(uk_midnight(date!(2026 - 09 - 20))), p(900));
        assert_eq!(state.price_at(NOW), p(900));
        assert_eq!(state.price_at(uk_midnight(date!(2026 - 09 - 22))), p(1000));
        // A promotion saved before dates were kept runs until the admin ends it.
        assert_eq!(
            change(0, 1000, 10.0, Promotion::default()).price_at(NOW),
            p(900)
        );
    }

    #[test]
    fn a_reduction_shows_the_price_held_28_days_before_it() {
        let history = [
            change(NOW - days(60), 1000, 0.0, Promotion::default()),
            change(NOW - days(20), 800, 0.0, Promotion::default()),
        ];
        let was = was_price(&history, NOW);
        assert_eq!(was.price, Some(p(1000)), "{}", was.reason);
        assert!(
            was.reason.starts_with("Shown: £10.00 was charged from"),
            "{}",
            was.reason
        );
        // 27 days at £10 is not enough.
        let short = [
            change(NOW - days(47), 1000, 0.0, Promotion::default()),
            change(NOW - days(20), 800, 0.0, Promotion::default()),
        ];
        let was = was_price(&short, NOW);
        assert_eq!(was.price, None);
        assert!(was.reason.contains("for 27 days"), "{}", was.reason);
    }

    #[test]
    fn a_promotion_with_dates_is_judged_against_the_price_before_it_started() {
        let start = uk_day(NOW - days(10));
        let history = [
            change(NOW - days(90), 1200, 0.0, Promotion::default()),
            // Saved 40 days ago, starting 10 days ago: the price before it ran for 80 days.
            change(
                NOW - days(40),
                1200,
                25.0,
                Promotion {
                    start: Some(start),
                    end: Some(uk_day(NOW + days(5))),
                },
            ),
        ];
        assert_eq!(was_price(&history, NOW).price, Some(p(1200)));
        // Once it has ended the price is back up: nothing to show.
        let after = was_price(&history, NOW + days(10));
        assert_eq!(after.price, None);
        assert!(
            after.reason.contains("that is no reduction"),
            "{}",
            after.reason
        );
        // Bouncing between prices resets the clock: £12 for 10 days only before this reduction.
        let bounced = [
            change(NOW - days(90), 900, 0.0, Promotion::default()),
            change(NOW - days(30), 1200, 0.0, Promotion::default()),
            change(NOW - days(20), 900, 0.0, Promotion::default()),
        ];
        assert_eq!(was_price(&bounced, NOW).price, None);
    }

    #[test]
    fn a_reference_older_than_six_months_is_not_shown_and_nor_is_an_unrecorded_one() {
        let history = [
            change(NOW - days(400), 1000, 0.0, Promotion::default()),
            change(NOW - days(160), 800, 0.0, Promotion::default()),
        ];
        let was = was_price(&history, NOW);
        assert_eq!(was.price, None);
        assert!(was.reason.contains("six months"), "{}", was.reason);
        assert_eq!(was_price(&history, NOW - days(20)).price, Some(p(1000)));
        assert_eq!(was_price(&[], NOW).price, None);
        let single = was_price(
            &[change(NOW - days(5), 800, 0.0, Promotion::default())],
            NOW,
        );
        assert!(
            single.reason.contains("no reduction to show"),
            "{}",
            single.reason
        );
    }

    #[test]
    fn only_changes_of_price_are_recorded_and_the_newest_are_kept() {
        let mut history = Vec::new();
        record(&mut history, change(1, 1000, 0.0, Promotion::default()));
        record(&mut history, change(2, 1000, 0.0, Promotion::default()));
        assert_eq!(history.len(), 1);
        for at in 0..MAX_CHANGES as i64 + 5 {
            record(
                &mut history,
                change(10 + at, 1000 + at, 0.0, Promotion::default()),
            );
        }
        assert_eq!(history.len(), MAX_CHANGES);
        assert_eq!(history.last().unwrap().at, 10 + MAX_CHANGES as i64 + 4);
    }
}
