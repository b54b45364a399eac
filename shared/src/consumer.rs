//! What consumer law has the shop tell a buyer, in one place for the policies the content function serves
//! and the confirmation e-mail the orders function sends: the model cancellation form in the words of the
//! Consumer Contracts Regulations 2013 (schedule 3, part B), who pays to send drinks back, how to complain,
//! and the terms' key points. The form's wording is the statute's; only the trader's details are filled in,
//! as the regulations instruct.

use crate::trader::{one_line, Trader};

/// Who pays to send drinks back after a cancellation (the regulations let the trader say the consumer does).
pub const RETURN_COSTS: &str =
    "If you cancel, you pay the cost of sending the drinks back, unless they \
     are faulty or not as described: then we pay it.";

/// The language the contract is concluded in.
pub const CONTRACT_LANGUAGE: &str = "English";

/// The model cancellation form's lines, the trader's name, geographic address and e-mail filled in.
pub fn model_cancellation_form(trader: &Trader) -> Vec<String> {
    let mut to = vec![trader.name.trim().to_owned()];
    if !trader.address.trim().is_empty() {
        to.push(one_line(&trader.address));
    }
    if !trader.email.trim().is_empty() {
        to.push(trader.email.trim().to_owned());
    }
    [
        "(Complete and return this form only if you wish to withdraw from the contract)".to_owned(),
        format!("To {}:", to.join(", ")),
        "I/We [*] hereby give notice that I/We [*] cancel my/our [*] contract of sale of the following goods \
         [*]/for the supply of the following service [*],"
            .to_owned(),
        "Ordered on [*]/received on [*],".to_owned(),
        "Name of consumer(s),".to_owned(),
        "Address of consumer(s),".to_owned(),
        "Signature of consumer(s) (only if this form is notified on paper),".to_owned(),
        "Date".to_owned(),
        "[*] Delete as appropriate.".to_owned(),
    ]
    .to_vec()
}

/// How to complain, and where to turn when the shop cannot settle it.
pub fn how_to_complain(trader: &Trader) -> String {
    let write = if trader.email.trim().is_empty() {
        "use the contact form on our website".to_owned()
    } else {
        format!("e-mail {}", trader.email.trim())
    };
    format!(
        "To complain, reply to our e-mail or {write}, saying what went wrong and what you would like us to do. \
         We reply within 24 hours on business days (Monday to Friday) and aim to settle every complaint within \
         14 days. If we cannot settle it, Citizens Advice consumer service (0808 223 1133) can advise you, and \
         you may bring a claim in the small claims court."
    )
}

/// The terms' key points, as the confirmation e-mail repeats them (the durable medium).
pub fn terms_key_points(trader: &Trader) -> Vec<String> {
    let seller = match trader.company_line() {
        Some(company) => format!(
            "You bought from {company}, trading as {}.",
            trader.name.trim()
        ),
        None => format!("You bought from {}.", trader.name.trim()),
    };
    vec![
        seller,
        "Prices include VAT; the delivery charge was added before you paid and is in the total above."
            .to_owned(),
        format!(
            "We deliver to UK addresses, usually within {}. If your order has not arrived within 30 days, \
             tell us and we will refund you in full.",
            trader.delivery_estimate
        ),
        "You may cancel within 14 days of receiving your drinks without giving a reason; we refund what you \
         paid, including the standard delivery charge, within 14 days of receiving the drinks back. Sealed \
         drinks must come back unopened."
            .to_owned(),
        RETURN_COSTS.to_owned(),
        "If a drink is faulty or not as described, your rights under the Consumer Rights Act 2015 apply: you \
         may reject it within 30 days for a full refund."
            .to_owned(),
        format!(
            "The contract is in {CONTRACT_LANGUAGE} and governed by the law of England and Wales; you may \
             also bring a claim in the courts of the part of the UK where you live."
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trader() -> Trader {
        Trader::from_item(
            &crate::dynamo::Item::from([
                ("name".to_owned(), crate::dynamo::s("Fizz")),
                (
                    "address".to_owned(),
                    crate::dynamo::s("1 Mill Yard\nLeeds LS1 1AA"),
                ),
                ("email".to_owned(), crate::dynamo::s("hello@fizz.example")),
                (
                    "companyName".to_owned(),
                    crate::dynamo::s("Fizz Drinks Ltd"),
                ),
            ]),
            "",
        )
    }

    #[test]
    fn the_model_form_is_the_statutes_with_the_trader_filled_in() {
        let form = model_cancellation_form(&trader());
        assert_eq!(
            form[1],
            "To Fizz, 1 Mill Yard, Leeds LS1 1AA, hello@fizz.example:"
        );
        assert!(form[2]
            .starts_with("I/We [*] hereby give notice that I/We [*] cancel my/our [*] contract"));
        assert_eq!(form.last().unwrap(), "[*] Delete as appropriate.");
        assert_eq!(form.len(), 9);
    }

    #[test]
    fn the_key_points_name_the_company_and_who_pays_for_returns() {
        let points = terms_key_points(&trader()).join(" ");
        assert!(points.contains("You bought from Fizz Drinks Ltd, trading as Fizz."));
        assert!(points.contains(RETURN_COSTS));
        assert!(points.contains("in English"));
        assert!(how_to_complain(&trader()).contains("e-mail hello@fizz.example"));
    }
}
