//! The mailbox behind an e-mail address, for once-per-customer codes: the big providers deliver many
//! spellings of one address to the same inbox, so a code limited to one use per customer is limited per
//! mailbox. Case never matters; the part after a `+` is a tag at Gmail, Outlook, iCloud, Fastmail and
//! Proton; dots in a Gmail name are ignored, and googlemail.com is gmail.com. Other domains keep their
//! name as typed (a dot or a `+` may be part of a real, different mailbox there).

/// Domains where `name+tag@` reaches `name@`.
const TAGGED: [&str; 14] = [
    "gmail.com",
    "googlemail.com",
    "outlook.com",
    "hotmail.com",
    "hotmail.co.uk",
    "live.com",
    "live.co.uk",
    "msn.com",
    "icloud.com",
    "me.com",
    "mac.com",
    "fastmail.com",
    "proton.me",
    "protonmail.com",
];

/// The mailbox `email` reaches, as the once-per-customer marker spells it.
pub fn fold(email: &str) -> String {
    let email = email.trim().to_lowercase();
    let Some((name, domain)) = email.rsplit_once('@') else {
        return email;
    };
    let domain = match domain {
        "googlemail.com" => "gmail.com",
        other => other,
    };
    let mut name = name;
    if TAGGED.contains(&domain) {
        name = name.split_once('+').map_or(name, |(base, _)| base);
    }
    let name = match domain {
        "gmail.com" => name.replace('.', ""),
        _ => name.to_owned(),
    };
    if name.is_empty() {
        // `+tag@` alone is no mailbox to fold into: keep the address whole.
        return email;
    }
    format!("{name}@{domain}")
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn the_spellings_of_one_mailbox_fold_into_it() {
        for spelling in [
            "Amira.Haddad@gmail.com",
            "amirahaddad+spring@gmail.com",
            "a.m.i.r.a.haddad+x+y@googlemail.com",
            " AMIRAHADDAD@GMAIL.COM ",
        ] {
            assert_eq!(fold(spelling), "amirahaddad@gmail.com", "{spelling}");
        }
        assert_eq!(fold("sam+shop@outlook.com"), "sam@outlook.com");
        assert_eq!(fold("sam+shop@icloud.com"), "sam@icloud.com");
        assert_eq!(fold("sam+shop@proton.me"), "sam@proton.me");
    }

    #[test]
    fn other_mailboxes_stay_apart() {
        // Dots count outside Gmail, and a + may be a real address elsewhere.
        assert_eq!(fold("sam.jones@outlook.com"), "sam.jones@outlook.com");
        assert_ne!(fold("sam.jones@outlook.com"), fold("samjones@outlook.com"));
        assert_eq!(
            fold("orders+shop@example.co.uk"),
            "orders+shop@example.co.uk"
        );
        assert_eq!(fold("a.b@example.com"), "a.b@example.com");
        assert_eq!(fold("+tag@gmail.com"), "+tag@gmail.com");
    }
}
