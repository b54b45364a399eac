//! One owner per table, held by reading the workspace's sources: a table's keys (`PRODUCT#id`, `SITE`,
//! `CODEUSE#...`) are spelled only in the crate that owns it (its `store` module and the modules behind
//! it), and every other crate reaches the table through that owner. A key spelled anywhere else fails here
//! with the owner to ask. docs/architecture.md lists the owners and who joins their writes.

use std::path::{Path, PathBuf};

/// A table, the source paths (from the repository root) that may spell its keys, the names its keys begin
/// with (a literal starting `name#`: `"PRODUCT#{id}"`) and the kinds that are whole keys (a literal that is
/// the name alone: `"PRODUCT"`, the `sk` of every drink, from which `shared::store` builds `PRODUCT#id`).
struct Owner {
    table: &'static str,
    paths: &'static [&'static str],
    prefixes: &'static [&'static str],
    kinds: &'static [&'static str],
    /// Who others ask instead, for the failure's message.
    ask: &'static str,
}

/// Some names begin keys in two tables, each for its own items (a review's proof sorts by `PRODUCT#drink`,
/// a login code is `CODE#email`, alerts and sign-ups wait as `PENDING#`, contact messages and bounce marks
/// are `FEEDBACK#`): such a name may be spelled by either owner, and by nobody else.
const OWNERS: &[Owner] = &[
    Owner {
        table: "CatalogTable",
        paths: &["functions/catalog/"],
        prefixes: &[
            "PRODUCT",
            "CATEGORY",
            "ALERT",
            "ALERTS-OF",
            "EMAIL",
            "PENDING",
        ],
        kinds: &["PRODUCT", "CATEGORY"],
        ask: "catalog::store",
    },
    Owner {
        table: "ContentTable",
        paths: &["functions/content/"],
        prefixes: &[
            "SITE",
            "LINK",
            "ABOUT",
            "WHOWEARE",
            "POLICY",
            "POLICY-VERSION",
            "FEEDBACK",
            "FEEDBACK-RATE",
        ],
        kinds: &["SITE", "LINK", "ABOUT", "WHOWEARE", "POLICY"],
        ask: "content::store",
    },
    Owner {
        table: "CodesTable",
        paths: &["functions/discounts/"],
        prefixes: &["CODE", "CODEUSE"],
        kinds: &["CODE"],
        ask: "discounts::store",
    },
    Owner {
        table: "SubscriptionTable",
        paths: &["functions/newsletter/"],
        prefixes: &["SUBSCRIBER", "MAILING", "PENDING"],
        kinds: &["SUBSCRIBER", "MAILING", "LISTCOUNT"],
        ask: "newsletter::store",
    },
    Owner {
        table: "OrdersTable",
        paths: &["functions/orders/"],
        prefixes: &[
            "ORDER",
            "CUSTOMER",
            "COUNTER",
            "IDEMPOTENCY",
            "INTENT",
            "SALES",
            "LEDGER",
            "STRIPE_EVENT",
            "UNPAID",
            "CANCEL",
            "HOLD",
            "CLAIM",
            "REFUND",
        ],
        kinds: &[],
        ask: "orders::purchases",
    },
    Owner {
        table: "ReviewsTable",
        // The drinks' rating counters are read by the catalogue, which sits below the reviews crate.
        paths: &["functions/reviews/", "shared/src/ratings.rs"],
        prefixes: &[
            "REVIEW",
            "REVIEW-PRODUCT",
            "REVIEW-VERIFIED",
            "SUMMARY",
            "PRODUCT",
        ],
        kinds: &["REVIEW", "SUMMARY"],
        ask: "shared::ratings",
    },
    Owner {
        table: "UsersTable",
        // Every function reads a caller's account through shared::auth::Users.
        paths: &["functions/auth/", "shared/src/auth.rs"],
        prefixes: &[
            "USER",
            "LOGIN",
            "LOGIN-RATE",
            "WRONG",
            "PASSKEY",
            "KEY",
            "CEREMONY",
            "CODE",
        ],
        // `CODE` also names an erasure's code under `ERASE#{email}`.
        kinds: &["USER", "USERS", "CODE"],
        ask: "shared::auth::Users",
    },
    Owner {
        table: "MailTable",
        // Every function writes its mail through the outbox; the day's counters are the budget's.
        // shared::mail_records answers the data rights for the same table.
        paths: &[
            "shared/src/outbox.rs",
            "shared/src/mail_budget.rs",
            "shared/src/mail_records.rs",
        ],
        prefixes: &[
            "OUTBOX",
            "DELIVERY",
            "PLAN",
            "FEEDBACK",
            "MAIL-BUDGET",
            "TO",
        ],
        kinds: &["OUTBOX", "OUTBOX-PENDING"],
        ask: "shared::outbox",
    },
    Owner {
        table: "the bin of each table",
        paths: &["shared/src/recycle_bin.rs"],
        prefixes: &["BIN", "BIN-LIST"],
        kinds: &["BIN"],
        ask: "shared::recycle_bin",
    },
];

/// How a literal spells a name: as the start of a key (`"NAME#...`) or whole (`"NAME"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelling {
    Prefix,
    Whole,
}

impl Owner {
    fn names(&self, spelling: Spelling) -> &'static [&'static str] {
        match spelling {
            Spelling::Prefix => self.prefixes,
            Spelling::Whole => self.kinds,
        }
    }

    fn owns(&self, path: &str) -> bool {
        self.paths.iter().any(|p| path.starts_with(p))
    }
}

/// Sources that may spell any table's keys: tests and their support (they set up and look at items
/// directly), and the benchmarks (the flash sale asks the emulator for faults by key prefix; the data rights'
/// one loads other customers' orders and reads a look-alike's back).
fn allowed_anywhere(path: &str) -> bool {
    path.contains("/tests/")
        || path.ends_with("_tests.rs")
        || path.starts_with("testkit/src/")
        || path.starts_with("local/src/bin/bench-")
}

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Every name a text's string literals spell as a key, with its line and how: a literal that is an
/// upper-case name whole, or starts with one and `#`. Comment lines and unit-test modules are skipped.
fn spelled(text: &str) -> Vec<(usize, String, Spelling)> {
    let mut found = Vec::new();
    let mut in_tests = false;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((number, line)) = lines.next() {
        let trimmed = line.trim_start();
        // A unit-test module (`#[cfg(test)] mod tests {` ... `}` at the margin) is a test.
        if trimmed == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|(_, next)| next.starts_with("mod ") && next.ends_with('{'))
        {
            in_tests = true;
            continue;
        }
        if in_tests {
            in_tests = line != "}";
            continue;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices('"') {
            let name: String = line[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '-' || *c == '_')
                .collect();
            let spelling = match line.as_bytes().get(at + 1 + name.len()) {
                Some(b'#') => Spelling::Prefix,
                Some(b'"') => Spelling::Whole,
                _ => continue,
            };
            if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                found.push((number + 1, name, spelling));
            }
        }
    }
    found
}

fn workspace_sources() -> Vec<(String, String)> {
    let root = testkit::emulator::repo_root();
    let mut files = Vec::new();
    for dir in ["functions", "shared/src", "testkit/src", "local/src"] {
        sources(&root.join(dir), &mut files);
    }
    files
        .into_iter()
        .map(|path| {
            let relative = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (relative, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

#[test]
fn every_tables_keys_are_spelled_only_by_its_owner() {
    let mut strays = Vec::new();
    for (path, text) in workspace_sources() {
        if allowed_anywhere(&path) {
            continue;
        }
        for (line, name, spelling) in spelled(&text) {
            let owners: Vec<&Owner> = OWNERS
                .iter()
                .filter(|o| o.names(spelling).contains(&name.as_str()))
                .collect();
            if !owners.is_empty() && !owners.iter().any(|o| o.owns(&path)) {
                let of: Vec<String> = owners
                    .iter()
                    .map(|o| format!("{} (ask {})", o.table, o.ask))
                    .collect();
                strays.push(format!(
                    "{path}:{line} spells {name}, a key of {}",
                    of.join(" or ")
                ));
            }
        }
    }
    assert!(strays.is_empty(), "\n{}", strays.join("\n"));
}

/// The list above is the tables' own: each name is still spelled by its owner (a prefix may be built from
/// its kind, as `shared::store` does), and each table is one of template.yaml's, so a renamed key or table
/// cannot leave the check guarding nothing.
#[test]
fn the_owners_list_names_real_keys_and_tables() {
    let sources = workspace_sources();
    for owner in OWNERS {
        let owned: Vec<(String, Spelling)> = sources
            .iter()
            .filter(|(path, _)| owner.owns(path) && !allowed_anywhere(path))
            .flat_map(|(_, text)| spelled(text))
            .map(|(_, name, spelling)| (name, spelling))
            .collect();
        for name in owner.prefixes {
            assert!(
                owned.iter().any(|(spelled, _)| spelled == name),
                "{name} is no longer spelled in {:?}",
                owner.paths
            );
        }
        for name in owner.kinds {
            assert!(
                owned.contains(&(name.to_string(), Spelling::Whole)),
                "{name} is no longer a kind in {:?}",
                owner.paths
            );
        }
    }
    let template =
        std::fs::read_to_string(testkit::emulator::repo_root().join("template.yaml")).unwrap();
    for owner in OWNERS.iter().filter(|o| o.table.ends_with("Table")) {
        assert!(
            template.contains(&format!("\n  {}:\n", owner.table)),
            "{} is not a table of template.yaml",
            owner.table
        );
    }
}

#[test]
fn a_key_literal_is_found_and_prose_is_not() {
    let text = "let k = s(format!(\"PRODUCT#{id}\"));\nlet sk = s(\"SITE\");\n// \"CODE#x\" in a comment\nlet m = \"Sold out\";\nlet t = \"MAIL-BUDGET#{day}\";\n#[cfg(test)]\nmod tests {\n    const X: &str = \"ORDER#1\";\n}\nlet last = \"HOLD#\";\n";
    let found: Vec<(usize, String, Spelling)> = spelled(text);
    let expected = [
        (1, "PRODUCT", Spelling::Prefix),
        (2, "SITE", Spelling::Whole),
        (5, "MAIL-BUDGET", Spelling::Prefix),
        (10, "HOLD", Spelling::Prefix),
    ];
    assert_eq!(
        found,
        expected
            .iter()
            .map(|(line, name, how)| (*line, name.to_string(), *how))
            .collect::<Vec<_>>()
    );
}
