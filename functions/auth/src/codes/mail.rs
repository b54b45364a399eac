//! The mail a code travels in: the code in its body only, never its subject (lock screens show subjects).

use shared::mail::{branded_html, Mail};

pub fn code_mail(shop: &str, email: &str, code: &str) -> Mail {
    let content = format!(
        "<p>Here is your code to log in to {shop}:</p>\
         <p style=\"font-size:32px;font-weight:bold;letter-spacing:6px;margin:16px 0\">{code}</p>\
         <p>It works once, for 10 minutes. If you did not ask for it, you can ignore this e-mail: nobody can \
         log in without it.</p>",
        shop = shared::mail::escape_html(shop)
    );
    Mail {
        to: email.to_owned(),
        subject: format!("Your {shop} login code"),
        html: branded_html(shop, "Your login code", &content),
        text: format!(
            "Here is your code to log in to {shop}: {code}\n\nIt works once, for 10 minutes. If you did not ask \
             for it, you can ignore this e-mail: nobody can log in without it.\n"
        ),
        reply_to: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mail_has_the_code_in_both_parts() {
        let mail = code_mail("Palestine <Drinks>", "a@example.com", "042042");
        assert!(mail.text.contains("042042"));
        assert!(mail.html.contains("042042"));
        assert!(mail.html.contains("Palestine &lt;Drinks&gt;"));
        assert!(
            !mail.subject.contains("042042"),
            "a lock screen shows the subject"
        );
    }
}
