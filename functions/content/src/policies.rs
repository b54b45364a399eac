//! The policies a UK shop selling to consumers must publish: terms of sale, delivery, returns with the
//! 14-day right to cancel and a model cancellation form (Consumer Contracts Regulations 2013), privacy
//! (UK GDPR) and cookies (PECR). Each has a fixed id the checkout and the confirmation e-mail link to. Until
//! an admin saves their own version, the standard text below is served, filled in with the site info's
//! name, address and contact details; deleting a saved version brings the standard text back, so the pages
//! the law asks for never go missing. Lines starting `## ` are headings (the front end gives each an anchor).

use shared::consumer::{how_to_complain, model_cancellation_form, RETURN_COSTS};
use shared::delivery::{whole_pounds, Delivery};
use shared::trader::{one_line, Trader};

/// When the standard texts' wording last changed: their "last updated" until an admin saves their own.
pub const STANDARD_TEXTS_REVISED: &str = "2026-11-27T00:00:00Z";

pub struct Standard {
    pub id: &'static str,
    pub name: &'static str,
    pub sort: u32,
    template: &'static str,
}

impl Standard {
    /// The text with the trader's facts in place of `{name}`, `{address}`, `{email}`, `{phone}`,
    /// `{delivery}`, `{vat}` and `{seller}` (the company, where the admin has named it), the statutory parts
    /// in place of `{model_form}`, `{return_costs}` and `{complaints}`, and the delivery terms in place of
    /// `{deliveryFee}` and `{freeDeliveryFrom}`.
    pub fn text(&self, trader: &Trader, delivery: &Delivery) -> String {
        let or = |value: &str, fallback: &str| {
            if value.trim().is_empty() {
                fallback.to_owned()
            } else {
                one_line(value)
            }
        };
        let name = or(&trader.name, "the shop");
        let address = or(&trader.address, "the address on our contact page");
        let seller = match trader.company_line() {
            Some(company) => format!("{company}, trading as {name} from {address}"),
            None => format!("{name}, {address}"),
        };
        let text = self
            .template
            .replace("{seller}", &seller)
            .replace("{name}", &name)
            .replace("{address}", &address)
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
            .replace("{model_form}", &model_cancellation_form(trader).join("\n"))
            .replace("{return_costs}", RETURN_COSTS)
            .replace("{complaints}", &how_to_complain(trader));
        fill_settings(&text, delivery)
    }
}

/// A policy's text with the delivery terms the checkout charges in place of `{deliveryFee}` and
/// `{freeDeliveryFrom}`: the standard texts use them, and so may an admin's own, so a policy never states
/// other terms than the shop charges.
pub fn fill_settings(text: &str, delivery: &Delivery) -> String {
    text.replace("{deliveryFee}", &delivery.fee.to_string())
        .replace("{freeDeliveryFrom}", &whole_pounds(delivery.free_from))
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
These terms apply to every order you place in this shop. Please read them before you pay: the confirmation \
e-mail we send you repeats their key points and is your record of the contract.
## Who we are
The seller is {seller}. You can reach us at {email} or on {phone}.
## Prices, VAT and delivery
Prices are in pounds sterling and include VAT at {vat}%. Delivery to a UK address costs {deliveryFee} per \
order and is free when your basket comes to {freeDeliveryFrom} or more after any discount code. Every drink's \
page and the basket say so, and the total beside the Pay button is the whole amount you pay.
## Checking and correcting your order
Before you pay, the checkout shows every drink, its quantity and price, the delivery charge and the total. \
You can correct any mistake until you press Pay: change a quantity or remove a drink in the basket, edit your \
name, address, e-mail, phone or note in the checkout form, and remove or change a discount code. Nothing is \
charged before you press Pay.
## Your order and the contract
When you press Pay we take payment and e-mail you a confirmation: the contract between us is made then. The \
contract is concluded in English, and these terms are offered in English only. We keep a record of your \
order, and these terms stay on this page. If we cannot supply a drink you ordered we tell you at once and \
refund what you paid for it.
## Delivery
We deliver to addresses in the UK, usually within {delivery}. See our delivery policy for the details.
## Your right to cancel
You may cancel within 14 days of receiving your drinks without giving a reason, as our returns policy \
explains. {return_costs} Sealed drinks must come back unopened; this does not affect your rights if they are \
faulty.
## If something is wrong
If a drink arrives damaged, faulty or not as described, tell us and we will replace it or refund you. \
Your rights under the Consumer Rights Act 2015 are not affected by these terms.
## How to complain
{complaints}
## Age and allergies
Each drink's page lists its ingredients, allergens and nutrition, and warns of high caffeine. Please \
read them before you buy, particularly for children.
## Law
These terms are governed by the law of England and Wales; you may also bring a claim in the courts of \
the part of the UK where you live.";

const DELIVERY: &str = "\
We deliver across the UK. Orders usually arrive within {delivery} of payment.
## What delivery costs
Delivery to any UK address costs {deliveryFee} per order, and is free when your basket comes to \
{freeDeliveryFrom} or more after any discount code. Every drink's page names the charge, the basket shows it \
with the total and how far you are from free delivery, and the checkout adds it before you pay: nothing else \
is added.
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
{return_costs} Sealed drinks that have been opened after delivery cannot be returned for health reasons \
unless they are faulty.
## Your refund
We refund everything you paid, including the standard delivery charge, within 14 days of receiving the \
drinks back (or proof that you sent them), to the card you paid with. There is no fee for the refund.
## Faulty drinks
If a drink is faulty or not as described you can reject it within 30 days for a full refund, return \
postage included, under the Consumer Rights Act 2015.
## How to complain
{complaints}
## Model cancellation form
{model_form}";

const PRIVACY: &str = "\
{seller}, is the controller of the personal data this shop holds. Contact us at {email} about anything in \
this notice.
## What we keep, why, and on what lawful basis
Orders: your name, delivery address, e-mail, phone and any note, with what you bought, to deliver your order \
and deal with any question about it (performing our contract with you), and to keep the records tax law \
requires (legal obligation).
Payments: Stripe takes your card details; they never reach us. We keep the card's brand and last four \
digits with your order (contract).
Logging in: your e-mail address, to send you a one-time code, the name, phone and address you save in \
your profile, and any passkey you add (its name, when you added and last used it, and the public half of \
the key your device keeps; never your fingerprint or face) (contract).
Reviews: the name, e-mail and words you send. We publish the name and words, never the e-mail. A review \
shows \"Verified\" only when it is proven to come from a buyer of the drink: written while logged in, from \
the link in your delivery e-mail, or confirmed from the link we e-mail to the address you typed \
(legitimate interests: honest reviews, which the law asks us to take steps for). When someone reports a \
review, we keep the reason they give with the review, not who they are.
Newsletter: your e-mail, your name if you give it, and the lists you choose, once you confirm by the link we \
e-mail you (consent, which you can withdraw at any time with the link in every e-mail).
Back-in-stock alerts: your e-mail and the drink you asked about, once you confirm by the link we e-mail \
you, to tell you once when it is back (consent; the alert has a link to stop it).
Contact messages: your name, e-mail, phone and message, to answer you (legitimate interests).
Keeping the shop safe: the network address each request comes from, counted for an hour or a day to limit \
repeated logins, orders and messages; a count of the e-mails we send each address in a day, so no form \
can be used to flood a mailbox; and how often an account downloaded its data that day (legitimate \
interests: protecting your account, other people's mailboxes and the shop).
## How long we keep it
Orders: six years after the end of the financial year of the order, as tax law requires. If you ask us to \
erase your data sooner, we remove your name, contact details and note from your orders and keep only what \
the accounts need; an order still on its way keeps the name and address it is delivered to until it is \
delivered or cancelled, and is then erased too (your profile shows which orders that is).
Login codes: ten minutes; counts of wrong codes: a day. Your account, profile and passkeys: until you \
delete them. When an account is erased we keep a keyed fingerprint of the address, never the address \
itself, so that an old login can never open a new account made with it, and a note of when the erasure \
was made and how much it removed.
Reviews: until you or we delete them; if you erase your data, a review stays as \"Former customer\" without \
your e-mail. A confirmation link for a review works for seven days.
Newsletter: until you unsubscribe; a sign-up never confirmed is deleted after 48 hours.
Back-in-stock alerts: until the drink is back and we have e-mailed you, or until you stop the alert.
Contact messages: one year.
Records of the e-mails we send you: 30 days.
Network addresses counted for the limits, the day's e-mail counts and download counts: an hour, at most a \
day.
Anything deleted from the admin area waits 30 days in a recycle bin, so a mistake can be undone, and is \
then gone.
## Who else sees it, and where
Stripe (payments), Amazon Web Services (hosting, our database and e-mail) and the courier who delivers \
your order, each only for that purpose. We never sell your data.
Stripe processes payment data in the United States as well as in the UK and the EU; those transfers are \
protected by the UK Extension to the EU-US Data Privacy Framework, under which Stripe is certified, and by \
the UK's International Data Transfer Addendum. Amazon Web Services keeps our data in its European regions \
and may reach it from elsewhere only under the same safeguards.
## Your rights
You can download everything we hold about you, or delete your account and your data, yourself: log in \
and open [your profile](/account/profile). You can also ask for a copy of your data, for it to be \
corrected or erased, object to how we use it, or withdraw a consent, by e-mailing {email}; we answer \
within a month. Every newsletter e-mail has a link to unsubscribe. If you are unhappy with how we handle \
your data, you can complain to the [Information Commissioner's Office](https://ico.org.uk/make-a-complaint/).";

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
    use shared::money::Pence;

    fn find(id: &str) -> Option<&'static Standard> {
        STANDARD.iter().find(|s| s.id == id)
    }

    fn trader() -> Trader {
        Trader {
            name: "Fizz".into(),
            address: "1 Mill Yard, Leeds LS1 1AA".into(),
            email: "hello@fizz.example".into(),
            phone: "0113 496 0000".into(),
            vat_rate: 20,
            vat_number: String::new(),
            delivery_estimate: "2 to 4 working days".into(),
            minimum_age: Some(16),
            company_name: "Fizz Drinks Ltd".into(),
            company_number: "01234567".into(),
            registered_office: "2 Park Row\nLeeds LS1 5AB".into(),
        }
    }

    fn delivery() -> Delivery {
        Delivery {
            fee: Pence::new(499).unwrap(),
            free_from: Pence::new(4000).unwrap(),
        }
    }

    #[test]
    fn the_standard_texts_name_the_trader_and_hold_the_statutory_form() {
        let returns = find("returns").unwrap().text(&trader(), &delivery());
        assert!(returns.contains("## Model cancellation form\n(Complete and return this form only if you wish to withdraw from the contract)\nTo Fizz, 1 Mill Yard, Leeds LS1 1AA, hello@fizz.example:\nI/We [*] hereby give notice"));
        assert!(returns.contains(RETURN_COSTS));
        for standard in STANDARD {
            let text = standard.text(&trader(), &delivery());
            assert!(!text.contains('{'), "{}: {text}", standard.id);
        }
        let terms = find("terms").unwrap().text(&trader(), &delivery());
        for part in [
            "include VAT at 20%",
            "The seller is Fizz Drinks Ltd, company number 01234567, registered office 2 Park Row, Leeds LS1 5AB, trading as Fizz from 1 Mill Yard, Leeds LS1 1AA.",
            "You can correct any mistake until you press Pay",
            "The contract is concluded in English",
            "## How to complain",
            "costs £4.99 per order and is free when your basket comes to £40 or more",
        ] {
            assert!(terms.contains(part), "{part}");
        }
    }

    #[test]
    fn the_delivery_policy_states_the_charge_the_checkout_makes() {
        let other = Delivery {
            fee: Pence::new(350).unwrap(),
            free_from: Pence::new(3950).unwrap(),
        };
        let text = find("delivery").unwrap().text(&trader(), &other);
        assert!(
            text.contains(
                "costs £3.50 per order, and is free when your basket comes to £39.50 or more"
            ),
            "{text}"
        );
        assert_eq!(
            fill_settings(
                "Delivery: {deliveryFee}, free from {freeDeliveryFrom}.",
                &other
            ),
            "Delivery: £3.50, free from £39.50."
        );
    }

    #[test]
    fn the_privacy_notice_names_bases_transfers_retention_and_the_self_service_rights() {
        let text = find("privacy").unwrap().text(&trader(), &delivery());
        for part in [
            "(performing our contract with you)",
            "(legal obligation)",
            "(consent",
            "(legitimate interests",
            "United States",
            "International Data Transfer Addendum",
            "Contact messages: one year.",
            "Back-in-stock alerts: until",
            "Newsletter: until you unsubscribe",
            "[your profile](/account/profile)",
            "(https://ico.org.uk/make-a-complaint/)",
            // What the shop does today: proven reviews, passkeys, reports, the mail budget, the erasure's
            // waiting orders and tombstone, the export limit and the bin.
            "only when it is proven to come from a buyer",
            "any passkey you add",
            "keep the reason they give with the review, not who they are",
            "a count of the e-mails we send each address in a day",
            "how often an account downloaded its data",
            "an order still on its way keeps the name and address",
            "a keyed fingerprint of the address, never the address",
            "waits 30 days in a recycle bin",
        ] {
            assert!(text.contains(part), "{part}");
        }
        // Reviews are no longer checked by matching a typed address against the orders.
        assert!(!text.contains("check the e-mail against our orders"));
    }
}
