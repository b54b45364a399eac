//! Paged lists as the spec's clients read them: `?pageNumber=n` from 1, answered as
//! `{"product": [...], "pages": N, "result": {"next": {"page": n+1}}}` with `next` absent on the last page.

use crate::error::ApiError;
use serde::{Deserialize, Serialize};

/// A page number from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageNumber(u32);

impl PageNumber {
    pub const FIRST: PageNumber = PageNumber(1);

    /// Absent means the first page; anything but a whole number from 1 (blank, padded, signed) is a 400,
    /// as the API document's integer says.
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        let Some(raw) = raw else {
            return Ok(PageNumber::FIRST);
        };
        let digits = !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit());
        match raw.parse::<u32>() {
            Ok(n) if digits && n >= 1 => Ok(PageNumber(n)),
            _ => Err(ApiError::bad_request(
                "pageNumber must be a whole number from 1",
            )),
        }
    }

    pub fn get(self) -> u32 {
        self.0
    }
}

/// The `?pageNumber=` query, kept as text so a bad value gets our message rather than a framework's.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct PageQuery {
    /// The page, from 1 (the first when absent).
    #[serde(rename = "pageNumber", default)]
    #[schemars(with = "u32", range(min = 1, max = u32::MAX))]
    pub page_number: Option<String>,
}

impl PageQuery {
    pub fn page(&self) -> Result<PageNumber, ApiError> {
        PageNumber::parse(self.page_number.as_deref())
    }
}

#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[schemars(rename = "Page_of_{T}")]
pub struct Page<T> {
    pub product: Vec<T>,
    pub pages: u32,
    pub result: PageResult,
}

#[derive(Debug, Serialize, PartialEq, Default, schemars::JsonSchema)]
pub struct PageResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<NextPage>,
}

#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
pub struct NextPage {
    pub page: u32,
}

impl<T> Page<T> {
    /// Cuts page `page` of `per_page` items out of the whole, ordered list.
    pub fn of(all: Vec<T>, page: PageNumber, per_page: usize) -> Self {
        let per_page = per_page.max(1);
        let pages = all.len().div_ceil(per_page).max(1) as u32;
        let start = (page.get() as usize - 1).saturating_mul(per_page);
        let product = all.into_iter().skip(start).take(per_page).collect();
        let next = (page.get() < pages).then(|| NextPage {
            page: page.get() + 1,
        });
        Page {
            product,
            pages,
            result: PageResult { next },
        }
    }
}

/// Where a page of a cursor-read list starts: after a cursor (a `result.next.cursor`), or at page n, after
/// the pages before it (the spec's clients).
#[derive(Debug, Clone, PartialEq)]
pub enum PageStart {
    After(String),
    Page(PageNumber),
}

impl PageStart {
    /// From `?pageNumber=` and `?cursor=`: a blank cursor is none; one `is_cursor` refuses is a 400. Also
    /// answers the page's number as the client counts (for `next.page`).
    pub fn parse(
        page_number: Option<&str>,
        cursor: Option<&str>,
        is_cursor: impl Fn(&str) -> bool,
    ) -> Result<(Self, u32), ApiError> {
        let page = PageNumber::parse(page_number)?;
        match cursor.map(str::trim).filter(|c| !c.is_empty()) {
            None => Ok((PageStart::Page(page), page.get())),
            Some(cursor) if is_cursor(cursor) => {
                Ok((PageStart::After(cursor.to_owned()), page.get()))
            }
            Some(_) => Err(ApiError::bad_request(
                "cursor must be the result.next.cursor of a page",
            )),
        }
    }

    /// How many of a list read from its top the page skips, at `per_page` a page.
    pub fn skip(&self, per_page: usize) -> usize {
        match self {
            PageStart::After(_) => 0,
            PageStart::Page(page) => (page.get() as usize - 1).saturating_mul(per_page),
        }
    }
}

/// A page of a list read with a cursor: the spec's envelope, whose `next` also carries where this page
/// ended, so the page after is one read from there rather than a read of every page before it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[schemars(rename = "CursorPage_of_{T}")]
pub struct CursorPage<T> {
    pub product: Vec<T>,
    pub pages: u32,
    pub result: CursorResult,
}

#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
pub struct CursorResult {
    /// The next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<CursorNext>,
}

#[derive(Debug, Serialize, PartialEq, schemars::JsonSchema)]
pub struct CursorNext {
    pub page: u32,
    /// Send as `?cursor=` to read the next page straight away.
    pub cursor: String,
}

impl<T> CursorPage<T> {
    /// Page `number` out of `read`: the page's items and one more when a page follows (so a list reads
    /// `per_page + 1`). `pages` is what the list's counter says (a next page read past it still counts);
    /// `cursor` gives an item's place, for the next page's `?cursor=`.
    pub fn cut(
        mut read: Vec<T>,
        number: u32,
        per_page: usize,
        pages: u32,
        cursor: impl Fn(&T) -> String,
    ) -> Self {
        let more = read.len() > per_page;
        read.truncate(per_page);
        let next = match read.last() {
            Some(last) if more => Some(CursorNext {
                page: number.saturating_add(1),
                cursor: cursor(last),
            }),
            _ => None,
        };
        let pages = match &next {
            Some(next) => pages.max(next.page),
            None => pages.max(1),
        };
        CursorPage {
            product: read,
            pages,
            result: CursorResult { next },
        }
    }

    /// The same page with each item shown as `view` shows it.
    pub fn map<U>(self, view: impl FnMut(T) -> U) -> CursorPage<U> {
        CursorPage {
            product: self.product.into_iter().map(view).collect(),
            pages: self.pages,
            result: self.result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_numbers_start_at_one() {
        assert_eq!(PageNumber::parse(None).unwrap(), PageNumber::FIRST);
        assert_eq!(PageNumber::parse(Some("3")).unwrap().get(), 3);
        for bad in ["0", "-1", "two", "1.5", "", " 2", "+2", "4294967296"] {
            assert_eq!(
                PageNumber::parse(Some(bad)).unwrap_err().status(),
                400,
                "{bad}"
            );
        }
    }

    #[test]
    fn the_envelope_names_the_next_page_until_the_last() {
        let first = Page::of((1..=25).collect(), PageNumber::FIRST, 10);
        assert_eq!(first.product, (1..=10).collect::<Vec<_>>());
        assert_eq!(first.pages, 3);
        assert_eq!(
            serde_json::to_value(&first.result).unwrap(),
            serde_json::json!({"next": {"page": 2}})
        );
        let last = Page::of(
            (1..=25).collect(),
            PageNumber::parse(Some("3")).unwrap(),
            10,
        );
        assert_eq!(last.product, vec![21, 22, 23, 24, 25]);
        assert_eq!(
            serde_json::to_value(&last.result).unwrap(),
            serde_json::json!({})
        );
    }

    #[test]
    fn an_empty_list_is_one_empty_page_and_past_the_end_is_empty() {
        let empty = Page::<u8>::of(vec![], PageNumber::FIRST, 10);
        assert_eq!((empty.product.len(), empty.pages), (0, 1));
        assert!(empty.result.next.is_none());
        let beyond = Page::of(vec![1, 2], PageNumber::parse(Some("9")).unwrap(), 10);
        assert!(beyond.product.is_empty());
    }

    #[test]
    fn a_cursor_page_names_the_next_only_when_one_was_read() {
        let page = CursorPage::cut(vec![1, 2, 3], 4, 2, 1, |n| format!("at{n}"));
        assert_eq!(page.product, vec![1, 2]);
        assert_eq!(
            page.result.next,
            Some(CursorNext {
                page: 5,
                cursor: "at2".into()
            })
        );
        assert_eq!(page.pages, 5, "a next page past the counter counts");
        let last = CursorPage::cut(vec![1, 2], 1, 2, 3, |n| format!("at{n}"));
        assert_eq!(last.result.next, None);
        assert_eq!(last.pages, 3);
        assert_eq!(
            CursorPage::<u8>::cut(vec![], 1, 2, 0, |_| String::new()).pages,
            1
        );
    }
}
