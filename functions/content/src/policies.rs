//! The policies a UK shop selling to consumers must publish: terms of sale, delivery, returns with the
//! 14-day right to cancel and a model cancellation form (Consumer Contracts Regulations 2013), privacy
//! (UK GDPR) and cookies (PECR). Each has a fixed id the checkout and the confirmation e-mail link to. Until
//! an admin saves their own version, the standard text below is served, filled in with the site info's
//! name, address and contact details; deleting a saved version brings the standard text back, so the pages
//! the law asks for never go missing. Lines starting `## ` are headings (the front end gives each an anchor).

use shared::trader::Trader;

pub struct Standard {
    pub id: &'static str,
    pub name: &'static str,
    pub sort: u32,
    template: &'static str,
}

impl Standard {
    /// The text with the trader's facts in place of `{name}`, `{address}`, `{email}`, `{phone}`,
    /// `{delivery}` and `{vat}`.
    pub fn text(&self, trader: &Trader) -> String {
        let or = |value: &str, fallback: &str| {
            if value.trim().is_empty() {
                fallback.to_owned()
            } else {
                value.trim().to_owned()
            }
        };
        self.template
            .replace("{name}", &or(&trader.name, "the shop"))
            .replace(
                "{address}",
                &or(&trader.address, "the address on our contact page"),
            )
            .replace(
                "{email}",
                &or(&trader.email, "the e-mail address on our contact page"),
            )
            .replace(
                "{phone}",
                &or(&trader.phone, "the number on our contact page"),
            )
            .replace("{delivery}", &trader.delivery_estimate)
            .replace("{vat}", &trader.vat_rate.to_string())
    }
}

pub const STANDARD: &[Standard] = &[
    Standard {
        id: "terms",
        name: "Terms of sale",
        sort: 1,
        template: TERMS,
    },
    Standard {
        id: "delivery",
        name: "Delivery",
        sort: 2,
        template: DELIVERY,
    },
    Standard {
        id: "returns",
        name: "Returns and your right to cancel",
        sort: 3,
        template: RETURNS,
    },
    Standard {
        id: "privacy",
        name: "Privacy notice",
        sort: 4,
        template: PRIVACY,
    },
    Standard {
        id: "cookies",
        name: "Cookies",
        sort: 5,
        template: COOKIES,
    },
];

const TERMS: &str = "\
These terms apply to every order you place in this shop. Please read them before you pay: they are also \
linked from the confirmation e-mail we send you, which is your record of the contract.
## Who we are
The seller is {name}, {address}. You can reach us at {email} or on {phone}.
## Prices and VAT
Prices are in pounds sterling and include VAT at {vat}%. Delivery is added at checkout and shown before \
you pay; the total you see beside the Pay button is the whole amount you pay.
## Your order and the contract
When you press Pay we take payment and e-mail you a confirmation: the contract between us is made then. \
If we cannot supply a drink you ordered we tell you at once and refund what you paid for it.
## Delivery
We deliver to addresses in the UK, usually within {delivery}. See our delivery policy for the details.
## Your right to cancel
You may cancel within 14 days of receiving your drinks without giving a reason, as our returns policy \
explains. Sealed drinks must come back unopened; this does not affect your rights if they are faulty.
## If something is wrong
If a drink arrives damaged, faulty or not as described, tell us and we will replace it or refund you. \
Your rights under the Consumer Rights Act 2015 are not affected by these terms.
## Age and allergies
Each drink's page lists its ingredients, allergens and nutrition, and warns of high caffeine. Please \
read them before you buy, particularly for children.
## Law
These terms are governed by the law of England and Wales; you may also bring a claim in the courts of \
the part of the UK where you live.";

const DELIVERY: &str = "\
We deliver across the UK. Orders usually arrive within {delivery} of payment.
## What delivery costs
The delivery charge is shown in your basket and at checkout before you pay, and it is free above the \
amount shown there.
## Tracking and missed deliveries
We e-mail you when your order is on its way. If nobody is in, the courier leaves a card saying how to \
rearrange delivery.
## Damaged or late
If your order arrives damaged, or has not arrived within 30 days, contact us at {email} and we will send \
a replacement or refund you in full.";

const RETURNS: &str = "\
You have the right to cancel your order within 14 days without giving any reason.
## How long you have
The cancellation period ends 14 days after the day you (or someone you name, other than the courier) \
receive the drinks. For an order delivered in several parts, it ends 14 days after the last part arrives.
## How to cancel
Tell us clearly that you are cancelling: e-mail {email}, write to {name}, {address}, or use the model \
cancellation form below (you do not have to). Sending your notice before the 14 days end is enough.
## Sending the drinks back
Send the drinks back unopened to {address} no later than 14 days after you tell us you are cancelling. \
You pay the cost of returning them. Sealed drinks that have been opened after delivery cannot be returned \
for health reasons unless they are faulty.
## Your refund
We refund everything you paid, including the standard delivery charge, within 14 days of receiving the \
drinks back (or proof that you sent them), to the card you paid with. There is no fee for the refund.
## Faulty drinks
If a drink is faulty or not as described you can reject it within 30 days for a full refund, return \
postage included, under the Consumer Rights Act 2015.
## Model cancellation form
Complete and return this form only if you wish to cancel your order.
To: {name}, {address}, {email}
I give notice that I cancel my contract of sale of the following goods:
Order number:
Ordered on: / Received on:
Your name:
Your address:
Your signature (only if this form is sent on paper):
Date:";

const PRIVACY: &str = "\
{name}, {address}, is the controller of the personal data this shop holds. Contact us at {email} about \
anything in this notice.
## What we keep and why
Your name, address, e-mail and phone with each order, to deliver it and to keep the records tax law \
requires (six years). Card details go to our payment processor, Stripe, and never reach us. Your e-mail \
when you log in, to send you the code. Reviews you write, with the name you give. If you subscribe to our \
newsletter, your e-mail and the lists you chose, until you unsubscribe.
## Who else sees it
Stripe (payments), Amazon Web Services (hosting and e-mail) and the courier who delivers your order, each \
only for that purpose. We never sell your data.
## Your rights
You can ask for a copy of your data, for it to be corrected or erased, or object to its use, by e-mailing \
{email}. You can also complain to the Information Commissioner's Office.";

const COOKIES: &str = "\
This shop sets no advertising or tracking cookies.
## What we store in your browser
Your basket, your delivery details as you type them and, when you log in, your session, kept in your \
browser's storage so the shop works as you move between pages. They are strictly necessary for the \
service you asked for, so the law does not require consent for them.
## Payments
When you pay, Stripe's card form may set its own cookies to prevent fraud. See Stripe's privacy notice.
## Clearing them
Logging out ends your session at once; clearing your browser's data for this site removes everything.";

#[cfg(test)]
mod tests {
    use super::*;

    fn find(id: &str) -> Option<&'static Standard> {
        STANDARD.iter().find(|s| s.id == id)
    }

    #[test]
    fn the_standard_texts_name_the_trader_and_hold_the_model_form() {
        let trader = Trader {
            name: "Fizz Ltd".into(),
            address: "1 Mill Yard, Leeds LS1 1AA".into(),
            email: "hello@fizz.example".into(),
            phone: "0113 496 0000".into(),
            vat_rate: 20,
            vat_number: String::new(),
            delivery_estimate: "2 to 4 working days".into(),
            minimum_age: Some(16),
        };
        let returns = find("returns").unwrap().text(&trader);
        assert!(returns.contains("## Model cancellation form"));
        assert!(returns.contains("To: Fizz Ltd, 1 Mill Yard, Leeds LS1 1AA, hello@fizz.example"));
        for standard in STANDARD {
            let text = standard.text(&trader);
            assert!(!text.contains('{'), "{}: {text}", standard.id);
        }
        assert!(find("terms")
            .unwrap()
            .text(&trader)
            .contains("include VAT at 20%"));
    }
}
