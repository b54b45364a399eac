//! The least-privilege and edge rules, read from template.yaml itself: what no emulator can check
//! (IAM conditions, CloudFront's origin header) is still held by a test.

use serde_yaml::Value;

fn template() -> Value {
    let text =
        std::fs::read_to_string(testkit::emulator::repo_root().join("template.yaml")).unwrap();
    // CloudFormation tags (!Ref, !Sub, ...) parse as tagged values; plain navigation is enough here.
    serde_yaml::from_str(&text).unwrap()
}

fn statements<'a>(template: &'a Value, function: &str) -> Vec<&'a Value> {
    template["Resources"][function]["Properties"]["Policies"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|p| p.get("Statement").and_then(Value::as_sequence))
        .flatten()
        .collect()
}

fn actions(statement: &Value) -> Vec<String> {
    match &statement["Action"] {
        Value::String(action) => vec![action.clone()],
        Value::Sequence(list) => list
            .iter()
            .filter_map(|a| a.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

fn text(value: &Value) -> String {
    serde_yaml::to_string(value).unwrap()
}

#[test]
fn ses_sends_only_from_the_shops_own_address() {
    let template = template();
    let functions: Vec<String> = template["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter(|(_, r)| r["Type"] == "AWS::Serverless::Function")
        .map(|(id, _)| id.as_str().unwrap().to_owned())
        .collect();
    let mut senders = 0;
    for function in &functions {
        for statement in statements(&template, function) {
            if actions(statement).iter().any(|a| a.starts_with("ses:")) {
                senders += 1;
                let condition = text(&statement["Condition"]);
                assert!(
                    condition.contains("ses:FromAddress"),
                    "{function}: {condition}"
                );
                assert!(condition.contains("MailFrom"), "{function}: {condition}");
            }
        }
    }
    assert!(senders >= 3, "the mailing functions were found");
}

#[test]
fn the_orders_function_writes_only_stock_on_the_catalogue() {
    let template = template();
    for statement in statements(&template, "OrdersFunction") {
        let resource = text(&statement["Resource"]);
        let writes = actions(statement)
            .into_iter()
            .any(|a| a.contains("Put") || a.contains("Update") || a.contains("Delete"));
        if !(resource.contains("CatalogTable") && writes) {
            continue;
        }
        // Back-in-stock alerts it may take (with their mail), and nothing else of the catalogue.
        if actions(statement) == vec!["dynamodb:DeleteItem".to_owned()] {
            let condition = text(&statement["Condition"]);
            assert!(
                condition.contains("dynamodb:LeadingKeys") && condition.contains("ALERT#*"),
                "{condition}"
            );
            continue;
        }
        assert_eq!(
            actions(statement),
            vec!["dynamodb:UpdateItem".to_owned()],
            "{resource}"
        );
        let condition = text(&statement["Condition"]);
        assert!(condition.contains("dynamodb:Attributes"), "{condition}");
        // Stock an order gives back to a deleted drink goes to its copy in the bin: that entry's `item`,
        // and only bin entries of drinks.
        if condition.contains("BIN#PRODUCT#*") {
            assert!(condition.contains("dynamodb:LeadingKeys"), "{condition}");
            assert!(condition.contains("- item"), "{condition}");
            assert!(!condition.contains("price"), "{condition}");
            continue;
        }
        for attribute in ["stock", "version"] {
            assert!(condition.contains(attribute), "{condition}");
        }
        for other in ["price", "name", "discount"] {
            assert!(!condition.contains(other), "{condition}");
        }
    }
}

#[test]
fn the_api_answers_only_cloudfront_and_no_secret_sits_in_an_environment() {
    let template = template();
    let api_origin = template["Resources"]["Distribution"]["Properties"]["DistributionConfig"]
        ["Origins"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|o| o["Id"] == "api")
        .unwrap();
    assert!(text(&api_origin["OriginCustomHeaders"]).contains("X-Origin-Verify"));
    let globals = text(&template["Globals"]["Function"]["Environment"]);
    assert!(globals.contains("ORIGIN_VERIFY_SECRET_ID"), "{globals}");
    // A secret travels by id (NAME_SECRET_ID, read at cold start), never as a resolved value.
    let everything =
        std::fs::read_to_string(testkit::emulator::repo_root().join("template.yaml")).unwrap();
    for (number, line) in everything.lines().enumerate() {
        if line.contains("resolve:secretsmanager") {
            assert!(line.contains("HeaderValue"), "line {}: {line}", number + 1);
        }
    }
}

/// The expiry job reads Stripe's API key and not the webhook secret (it verifies no events), and
/// is not even told where that secret is.
#[test]
fn the_expiry_job_cannot_read_the_webhook_secret() {
    let template = template();
    let function = &template["Resources"]["OrdersExpiryFunction"]["Properties"];
    let variables = text(&function["Environment"]["Variables"]);
    assert!(!variables.contains("webhook"), "{variables}");
    let mut secrets = 0;
    for statement in statements(&template, "OrdersExpiryFunction") {
        if !actions(statement).contains(&"secretsmanager:GetSecretValue".to_owned()) {
            continue;
        }
        secrets += 1;
        let resource = text(&statement["Resource"]);
        assert!(resource.contains("stripe-secret-key-*"), "{resource}");
        assert!(!resource.contains("orders/*"), "{resource}");
    }
    assert_eq!(secrets, 1, "one secret statement, for the API key");
}

/// The images function appends image names; its update may touch nothing else of a drink
/// (never its price) and may not answer the whole item back.
#[test]
fn the_images_function_updates_only_image_lists() {
    let template = template();
    let mut updates = 0;
    for statement in statements(&template, "ImagesFunction") {
        let acts = actions(statement);
        if !acts
            .iter()
            .any(|a| a.starts_with("dynamodb:") && a != "dynamodb:GetItem")
        {
            continue;
        }
        updates += 1;
        assert_eq!(acts, vec!["dynamodb:UpdateItem".to_owned()]);
        let condition = text(&statement["Condition"]);
        for attribute in ["image", "version", "ReturnValues"] {
            assert!(condition.contains(attribute), "{condition}");
        }
        for other in ["price", "Discountprice", "stock", "name"] {
            assert!(!condition.contains(other), "{condition}");
        }
    }
    assert_eq!(updates, 1, "one update statement");
}

#[test]
fn the_catalogue_reads_only_the_drinks_rating_summaries_of_the_reviews_table() {
    let template = template();
    let on_reviews: Vec<&Value> = statements(&template, "CatalogFunction")
        .into_iter()
        .filter(|s| text(&s["Resource"]).contains("ReviewsTable"))
        .collect();
    assert_eq!(on_reviews.len(), 1, "one statement on the reviews table");
    assert_eq!(actions(on_reviews[0]), ["dynamodb:BatchGetItem"]);
    let condition = text(&on_reviews[0]["Condition"]);
    assert!(
        condition.contains("dynamodb:LeadingKeys") && condition.contains("SUMMARY#PRODUCT#*"),
        "{condition}"
    );
}

/// Each table's owning crate, and the module paths a grant on it from another function may name: the
/// owner's door (`catalog::store`), or the read path kept in `shared` for tables every function reads.
const TABLE_OWNERS: &[(&str, &str, &[&str])] = &[
    ("CatalogTable", "catalog", &["catalog::"]),
    ("ContentTable", "content", &["content::"]),
    ("CodesTable", "discounts", &["discounts::"]),
    ("SubscriptionTable", "newsletter", &["newsletter::"]),
    ("OrdersTable", "orders", &["orders::"]),
    ("ReviewsTable", "reviews", &["reviews::", "shared::ratings"]),
    ("UsersTable", "auth", &["auth::", "shared::auth"]),
    (
        "MailTable",
        "shared",
        &["shared::outbox", "shared::mail_budget"],
    ),
];

fn functions(template: &Value) -> Vec<String> {
    template["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter(|(_, r)| r["Type"] == "AWS::Serverless::Function")
        .map(|(id, _)| id.as_str().unwrap().to_owned())
        .collect()
}

/// The comment in force over each of `function`'s policy statements, in order: the comment lines just
/// above a statement, or, for a statement without its own, the one above the statement before it (a
/// comment covers the statements under it).
fn statement_comments(function: &str) -> Vec<String> {
    let everything =
        std::fs::read_to_string(testkit::emulator::repo_root().join("template.yaml")).unwrap();
    let start = everything
        .find(&format!("\n  {function}:\n"))
        .expect("the function's resource");
    let block: Vec<&str> = everything[start + 1..]
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with("  ") || line.starts_with("   "))
        .collect();
    let mut comments = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    let mut in_force = String::new();
    for line in block {
        let trimmed = line.trim_start();
        if let Some(words) = trimmed.strip_prefix('#') {
            pending.push(words.trim());
        } else if trimmed.starts_with("- Effect:") {
            if !pending.is_empty() {
                in_force = pending.join(" ");
            }
            comments.push(in_force.clone());
            pending.clear();
        } else {
            pending.clear();
        }
    }
    comments
}

/// A function's role reaches another function's table only to join that owner's operations, and the
/// grant's comment names them (`catalog::store::take_stock`, `shared::outbox`), so a reader of the
/// template can find the code a grant exists for, and a grant nobody names stands out.
#[test]
fn every_grant_on_another_owners_table_names_the_owners_operation() {
    let template = template();
    let mut checked = 0;
    for function in functions(&template) {
        let code_uri = template["Resources"][function.as_str()]["Properties"]["CodeUri"]
            .as_str()
            .unwrap()
            .to_owned();
        let own = code_uri.trim_start_matches("functions/");
        let parsed = statements(&template, &function);
        let comments = statement_comments(&function);
        assert_eq!(parsed.len(), comments.len(), "{function}'s statements");
        for (statement, comment) in parsed.iter().zip(&comments) {
            let resource = text(&statement["Resource"]);
            for (table, owner, paths) in TABLE_OWNERS {
                if !resource.contains(table) || *owner == own {
                    continue;
                }
                checked += 1;
                assert!(
                    paths.iter().any(|path| comment.contains(path)),
                    "{function}'s grant on {table} names none of {paths:?}: {comment:?}"
                );
            }
        }
    }
    assert!(checked >= 20, "the cross grants were found ({checked})");
}

/// Only a route reads its caller's account: a function that serves none (the sender, the expiry job, the
/// feedback job) has no grant on the users table.
#[test]
fn a_function_without_routes_has_no_grant_on_the_users_table() {
    let template = template();
    for function in functions(&template) {
        let events = &template["Resources"][function.as_str()]["Properties"]["Events"];
        let routes = events
            .as_mapping()
            .is_some_and(|events| events.values().any(|e| e["Type"] == "HttpApi"));
        if routes {
            continue;
        }
        for statement in statements(&template, &function) {
            let resource = text(&statement["Resource"]);
            assert!(!resource.contains("UsersTable"), "{function}: {resource}");
        }
    }
}

/// Where a function reads or writes single items of the catalogue, the content or the codes through their
/// owner, the grant names those items' keys (drinks, their bin entries and alerts; the site info and the
/// terms; codes and their bin entries), never the whole table.
#[test]
fn single_item_grants_on_the_catalogue_content_and_codes_name_their_keys() {
    let template = template();
    let mut keyed = 0;
    for function in [
        "OrdersFunction",
        "OrdersExpiryFunction",
        "ReviewsFunction",
        "ImagesFunction",
    ] {
        for statement in statements(&template, function) {
            let resource = text(&statement["Resource"]);
            let on_owned = ["CatalogTable.Arn", "ContentTable.Arn", "CodesTable.Arn"]
                .iter()
                .any(|table| resource.contains(table));
            let single = actions(statement).iter().all(|a| {
                [
                    "dynamodb:GetItem",
                    "dynamodb:BatchGetItem",
                    "dynamodb:UpdateItem",
                ]
                .contains(&a.as_str())
            });
            if !on_owned || !single || resource.contains("/index/") {
                continue;
            }
            keyed += 1;
            let condition = text(&statement["Condition"]);
            assert!(
                condition.contains("dynamodb:LeadingKeys"),
                "{function}: {resource} {condition}"
            );
        }
    }
    assert!(keyed >= 10, "the single-item grants were found ({keyed})");
}
