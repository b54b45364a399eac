//! A bulk mailing's letter as checked (`mailer` checks an admin's input into one; `mailing` stores and
//! sends it) and how it reads in an e-mail: HTML with every admin text escaped, and plain text.

use shared::mail::{branded_html, escape_html};

/// A section as checked: trimmed, links and images only `http(s)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Section {
    pub title: String,
    pub description: String,
    pub link: String,
    pub image: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Letter {
    pub lists: Vec<String>,
    pub subject: String,
    pub sections: Vec<Section>,
}

/// What the preview and the e-mail show: a field only when it is longer than 2 characters.
fn shown(text: &str) -> Option<&str> {
    (text.chars().count() > 2).then_some(text)
}

impl Letter {
    /// The HTML content (inside the shop's frame) and the text part for one reader.
    pub fn render(&self, shop: &str, unsubscribe: &str) -> (String, String) {
        let mut html = String::new();
        let mut text = String::new();
        for section in &self.sections {
            if let Some(image) = shown(&section.image) {
                html.push_str(&format!(
                    "<p><img src=\"{}\" alt=\"{}\" width=\"504\" style=\"max-width:100%;height:auto;border-radius:8px\"></p>",
                    escape_html(image),
                    escape_html(&section.title)
                ));
            }
            if let Some(title) = shown(&section.title) {
                html.push_str(&format!(
                    "<h2 style=\"font-size:20px;margin:16px 0 8px\">{}</h2>",
                    escape_html(title)
                ));
                text.push_str(&format!("{title}\n\n"));
            }
            if let Some(description) = shown(&section.description) {
                html.push_str(&format!(
                    "<p style=\"white-space:pre-wrap\">{}</p>",
                    escape_html(description)
                ));
                text.push_str(&format!("{description}\n\n"));
            }
            if let Some(link) = shown(&section.link) {
                html.push_str(&format!(
                    "<p><a href=\"{}\" style=\"color:#b3261e;font-weight:bold\">Find out more</a></p>",
                    escape_html(link)
                ));
                text.push_str(&format!("Find out more: {link}\n\n"));
            }
        }
        html.push_str(&format!(
            "<p style=\"font-size:13px;color:#6b5b53\">You get this e-mail because you subscribed to it. \
             <a href=\"{}\">Unsubscribe</a> at any time.</p>",
            escape_html(unsubscribe)
        ));
        text.push_str(&format!(
            "You get this e-mail because you subscribed to it. Unsubscribe at any time: {unsubscribe}\n"
        ));
        (branded_html(shop, &self.subject, &html), text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(sections: Vec<Section>) -> Letter {
        Letter {
            lists: vec!["Newsletter".to_owned()],
            subject: "Summer <drinks>".to_owned(),
            sections,
        }
    }

    #[test]
    fn admin_text_is_escaped_and_short_fields_are_left_out() {
        let (html, text) = letter(vec![
            Section {
                title: "<script>alert(1)</script>".to_owned(),
                description: "Fish & \"chips\"".to_owned(),
                link: "https://example.com/?a=1&b=\"2\"".to_owned(),
                image: String::new(),
            },
            Section {
                title: "ab".to_owned(),
                description: "Long enough".to_owned(),
                link: "ht".to_owned(),
                image: "x".to_owned(),
            },
        ])
        .render("Shop", "https://shop.example/u?token=t");
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("Fish &amp; &quot;chips&quot;"));
        assert!(html.contains("href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\""));
        assert!(html.contains("Summer &lt;drinks&gt;"));
        assert!(!html.contains(">ab<"));
        assert!(!html.contains("<img"));
        assert!(text.contains("<script>alert(1)</script>"));
        assert!(text.contains("Unsubscribe at any time: https://shop.example/u?token=t"));
    }
}
