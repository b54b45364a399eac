//! A property test: random interleavings of checkouts (paid at once, or through 3-D Secure completed,
//! failed or abandoned), Stripe's events (delivered late, twice, out of order), the admin's ship, deliver
//! and refunds (whole, lines, amounts), refunds made in Stripe's Dashboard and refunds the bank fails, expiry
//! runs, drinks and codes deleted and restored, and Stripe down or too slow to answer (any call, or the
//! checkout's own: the card read, the payment created and confirmed, so a checkout meets a Stripe that is
//! paused or times out, and an answer lost after the bank charged holds the order). After each run, once
//! everything has settled: every order's status and refunded amount are what Stripe holds for its payment,
//! refunds never pass the charge, stock and code uses are conserved, and the results are what was paid less
//! what was refunded.
//!
//! `MONEY_PROPERTY_SEED` (a number) replays a run; `MONEY_PROPERTY_RUNS` (2) and `MONEY_PROPERTY_STEPS`
//! (30) make it longer: `MONEY_PROPERTY_RUNS=50 MONEY_PROPERTY_STEPS=80 cargo test -p orders --test api
//! interleavings`. A failure names the seed and the steps it took.

use crate::helpers::{
    card, clear_faults, events_about, fault, spawn_app_with_own_stripe, stripe, TestApp, NEEDS_3DS,
    PAYS,
};
use http::{Method, StatusCode};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};

/// splitmix64: a small, well-mixed generator, so a seed replays a run exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len() as u64) as usize])
    }
}

fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

const STOCK: u64 = 40;

struct World<'a> {
    /// The shop, with a Stripe key of its own: Stripe's trouble meets every call it makes, the checkout's
    /// included (its single answers are the tests' in bank.rs and stripe_calls.rs; here what follows them).
    app: &'a TestApp,
    rng: Rng,
    drinks: Vec<String>,
    code: String,
    /// Every order placed, with the client secret of one waiting for 3-D Secure.
    orders: Vec<(String, Option<String>)>,
    /// Stripe's events not delivered yet (some stay after delivery, to come again).
    queue: Vec<Value>,
    seen: HashSet<String>,
    deleted_drinks: HashSet<String>,
    code_deleted: bool,
    log: Vec<String>,
    placed: u64,
}

impl World<'_> {
    fn step(&mut self, what: String) {
        self.log.push(what);
    }

    /// No answer of the shop's is ever a 500, whatever Stripe does.
    fn no_500(&self, reply: &testkit::Reply, what: &str) {
        assert!(
            reply.status != StatusCode::INTERNAL_SERVER_ERROR,
            "{what} answered 500: {}\nsteps: {:#?}",
            reply.body,
            self.log
        );
    }

    async fn checkout(&mut self, three_ds: bool) {
        let drinks: Vec<String> = self
            .drinks
            .iter()
            .filter(|d| !self.deleted_drinks.contains(*d))
            .cloned()
            .collect();
        let Some(drink) = self.rng.pick(&drinks).cloned() else {
            return;
        };
        let qty = 1 + self.rng.below(3);
        self.placed += 1;
        let email = format!("shopper{}@example.com", self.placed);
        let number = if three_ds { NEEDS_3DS } else { PAYS };
        let mut body = json!({
            "fullname": "Amira Haddad", "address": "1 High St, Leeds LS1 1AA", "phone": "07700 900123",
            "email": email, "message": "", "product": [{"product": drink, "qty": qty}],
            "payment": {"provider": "stripe", "paymentMethod": card(number)}
        });
        if !self.code_deleted && self.rng.chance(40) {
            body["code"] = json!(self.code);
        }
        let reply = self
            .app
            .orders
            .call(Method::POST, "/api/order/create/", None, Some(body))
            .await;
        self.no_500(&reply, "a checkout");
        self.step(format!(
            "checkout {qty} x {drink} (3DS {three_ds}): {} {}",
            reply.status, reply.body["message"]
        ));
        match reply.status {
            StatusCode::CREATED => self
                .orders
                .push((reply.body.as_str().unwrap().to_owned(), None)),
            StatusCode::ACCEPTED => self.orders.push((
                reply.body["_id"].as_str().unwrap().to_owned(),
                reply.body["clientSecret"].as_str().map(str::to_owned),
            )),
            // Held while Stripe's answer is unknown (the bank may have charged), or refused or given up with
            // nothing charged: a held one settles later.
            _ => {
                if let Some(id) = reply.body["message"]
                    .as_str()
                    .and_then(|m| m.split("order ").nth(1))
                    .and_then(|rest| rest.split_whitespace().next())
                    .filter(|id| id.len() == 36 && id.matches('-').count() == 4)
                {
                    self.orders.push((id.to_owned(), None));
                }
            }
        }
    }

    async fn three_ds(&mut self) {
        let waiting: Vec<(String, String)> = self
            .orders
            .iter()
            .filter_map(|(id, secret)| secret.clone().map(|s| (id.clone(), s)))
            .collect();
        let Some((id, secret)) = self.rng.pick(&waiting).cloned() else {
            return;
        };
        let success = self.rng.chance(70);
        let done = stripe().authenticate(&secret, success).is_ok();
        let confirm = self.rng.chance(50);
        self.step(format!(
            "3-D Secure {id}: success {success} (taken {done}), confirm {confirm}"
        ));
        for entry in self.orders.iter_mut().filter(|(o, _)| *o == id) {
            entry.1 = None;
        }
        if confirm {
            let reply = self
                .app
                .orders
                .call(
                    Method::POST,
                    &format!("/api/order/confirm/{id}/"),
                    None,
                    None,
                )
                .await;
            self.no_500(&reply, "a confirmation");
        }
    }

    async fn intents(&self) -> Vec<String> {
        let mut intents = Vec::new();
        for (id, _) in &self.orders {
            let intent = self.app.intent_of(id).await;
            if !intent.is_empty() {
                intents.push(intent);
            }
        }
        intents
    }

    async fn pull_events(&mut self) {
        for intent in self.intents().await {
            for event in events_about(&intent) {
                let id = event["id"].as_str().unwrap().to_owned();
                if self.seen.insert(id) {
                    self.queue.push(event);
                }
            }
        }
    }

    async fn deliver(&mut self, keep_some: bool) {
        if self.queue.is_empty() {
            return;
        }
        let at = self.rng.below(self.queue.len() as u64) as usize;
        let event = match keep_some && self.rng.chance(25) {
            true => self.queue[at].clone(),
            false => self.queue.swap_remove(at),
        };
        let reply = self.app.stripe_event(&event, None).await;
        self.no_500(&reply, "a Stripe event");
        self.step(format!(
            "deliver {} {}: {} {}",
            event["type"], event["id"], reply.status, reply.body["outcome"]
        ));
    }

    fn random_order(&mut self) -> Option<String> {
        let ids: Vec<String> = self.orders.iter().map(|(id, _)| id.clone()).collect();
        self.rng.pick(&ids).cloned()
    }

    async fn admin_move(&mut self) {
        let Some(id) = self.random_order() else {
            return;
        };
        let status = *self
            .rng
            .pick(&["shipped", "delivered", "cancelled"])
            .unwrap();
        let reply = self
            .app
            .admin(
                Method::PUT,
                &format!("/api/order/update/{id}"),
                Some(json!({"status": status})),
            )
            .await;
        self.no_500(&reply, "an admin's move");
        self.step(format!("{status} {id}: {}", reply.status));
    }

    async fn admin_refund(&mut self) {
        let Some(id) = self.random_order() else {
            return;
        };
        let order = self.app.stored(&id).await;
        let line = order["product"][0].clone();
        let body = match self.rng.below(3) {
            0 => json!({"lines": [{"product": line["product"], "qty": 1}], "reason": "Returned",
                        "restock": self.rng.chance(50)}),
            1 => {
                json!({"lines": [], "amount": 0.5 + self.rng.below(300) as f64 / 100.0, "reason": "Goodwill"})
            }
            _ => json!({"lines": [], "delivery": true, "reason": "Late delivery"}),
        };
        let reply = self.app.refund(&id, body.clone()).await;
        self.no_500(&reply, "a refund");
        self.step(format!(
            "refund {id} {body}: {} {}",
            reply.status, reply.body["message"]
        ));
    }

    async fn dashboard_refund(&mut self) {
        let Some(id) = self.random_order() else {
            return;
        };
        let intent = self.app.intent_of(&id).await;
        if intent.is_empty() {
            return;
        }
        let amount = (50 + self.rng.below(400)).to_string();
        let made = stripe().api(
            "POST",
            "/v1/refunds",
            &[
                ("payment_intent", intent.as_str()),
                ("amount", amount.as_str()),
            ],
        );
        self.step(format!(
            "dashboard refund {amount}p of {id}: {}",
            made.is_ok()
        ));
    }

    async fn fail_a_refund(&mut self) {
        let Some(id) = self.random_order() else {
            return;
        };
        let intent = self.app.intent_of(&id).await;
        if intent.is_empty() {
            return;
        }
        let refunds = stripe()
            .api("GET", &format!("/v1/refunds?payment_intent={intent}"), &[])
            .map(|list| list["data"].as_array().cloned().unwrap_or_default())
            .unwrap_or_default();
        let standing: Vec<Value> = refunds
            .into_iter()
            .filter(|r| r["status"] != "failed")
            .collect();
        if let Some(refund) = self.rng.pick(&standing).cloned() {
            let failed = stripe().api(
                "POST",
                &format!("/_shim/refunds/{}", refund["id"].as_str().unwrap()),
                &[("status", "failed")],
            );
            self.step(format!(
                "the bank fails refund {} of {id}: {}",
                refund["id"],
                failed.is_ok()
            ));
        }
    }

    async fn expire(&mut self) {
        let later = *self.rng.pick(&[0, 11 * 60, 31 * 60, 3 * 3600]).unwrap();
        let run = orders::expiry::expire_pending(&self.app.state, shared::time::now_unix() + later)
            .await
            .unwrap_or_else(|e| panic!("the expiry failed: {e:?}\nsteps: {:#?}", self.log));
        self.step(format!("expiry +{later}s: {run:?}"));
    }

    async fn bin(&mut self) {
        let app = self.app;
        if self.rng.chance(50) {
            let Some(drink) = self.rng.pick(&self.drinks).cloned() else {
                return;
            };
            let (path, deleted) = match self.deleted_drinks.contains(&drink) {
                true => (format!("/api/product/restore/{drink}"), false),
                false => (format!("/api/product/delete/{drink}"), true),
            };
            let method = if deleted {
                Method::DELETE
            } else {
                Method::POST
            };
            let reply = app
                .catalog
                .call(method, &path, Some(&app.admin), None)
                .await;
            if reply.status.is_success() {
                match deleted {
                    true => self.deleted_drinks.insert(drink.clone()),
                    false => self.deleted_drinks.remove(&drink),
                };
            }
            self.step(format!("{path}: {}", reply.status));
        } else {
            let (path, method) = match self.code_deleted {
                true => (format!("/api/code/restore/{}", self.code), Method::POST),
                false => (format!("/api/code/delete/{}", self.code), Method::DELETE),
            };
            let reply = app.codes.call(method, &path, Some(&app.admin), None).await;
            if reply.status.is_success() {
                self.code_deleted = !self.code_deleted;
            }
            self.step(format!("{path}: {}", reply.status));
        }
    }

    fn stripe_trouble(&mut self) {
        let count = 1 + self.rng.below(3) as u32;
        match self.rng.below(10) {
            0..=3 => {
                fault(self.app, "down", count, "/v1/", "", 0.0);
                self.step(format!("Stripe down for {count} calls"));
            }
            4..=5 => {
                fault(self.app, "slow", 1, "/v1/", "", 1.2);
                self.step("Stripe too slow to answer one call".to_owned());
            }
            // The payment's own calls: from its creation on, or from its confirmation on (a checkout's, a
            // 3-D Secure confirmation's, a release's cancel). Slow twice, the call and its retry both time
            // out after Stripe acted: a confirmation's outcome is then unknown and the order held.
            _ => {
                let (mode, count) = match self.rng.chance(50) {
                    true => ("down", count),
                    false => ("slow", count.min(2)),
                };
                let path = *self
                    .rng
                    .pick(&["/v1/payment_intents", "/v1/payment_intents/"])
                    .unwrap();
                fault(self.app, mode, count, path, "POST", 1.2);
                self.step(format!("Stripe {mode} for {count} POSTs under {path}"));
            }
        }
    }
}

/// What Stripe holds for a payment: its status, amount and what stands refunded.
fn at_stripe(intent: &str) -> (String, i64, i64) {
    let pi = stripe()
        .api("GET", &format!("/v1/payment_intents/{intent}"), &[])
        .unwrap();
    let refunded: i64 = stripe()
        .api("GET", &format!("/v1/refunds?payment_intent={intent}"), &[])
        .map(|list| {
            list["data"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["status"] != "failed")
                .map(|r| r["amount"].as_i64().unwrap())
                .sum()
        })
        .unwrap_or(0);
    (
        pi["status"].as_str().unwrap().to_owned(),
        pi["amount"].as_i64().unwrap(),
        refunded,
    )
}

fn pence(value: &Value) -> i64 {
    (value.as_f64().unwrap() * 100.0).round() as i64
}

async fn settle(world: &mut World<'_>) {
    clear_faults(world.app);
    // Everything the bin holds comes back, so stock and uses can be counted where they live.
    for drink in world.deleted_drinks.clone() {
        let reply = world
            .app
            .catalog
            .call(
                Method::POST,
                &format!("/api/product/restore/{drink}"),
                Some(&world.app.admin),
                None,
            )
            .await;
        assert!(reply.status.is_success(), "restore {drink}: {}", reply.body);
    }
    world.deleted_drinks.clear();
    if world.code_deleted {
        let path = format!("/api/code/restore/{}", world.code);
        let reply = world
            .app
            .codes
            .call(Method::POST, &path, Some(&world.app.admin), None)
            .await;
        assert!(reply.status.is_success(), "{}", reply.body);
        world.code_deleted = false;
    }
    for _ in 0..4 {
        world.pull_events().await;
        while !world.queue.is_empty() {
            world.deliver(false).await;
        }
        // Past every hold and every claim's wait.
        let run =
            orders::expiry::expire_pending(&world.app.state, shared::time::now_unix() + 3 * 3600)
                .await
                .unwrap();
        world.step(format!("settling expiry: {run:?}"));
    }
}

async fn check(world: &World<'_>, seed: u64) {
    let app = world.app;
    let fail = |why: String| -> ! { panic!("seed {seed}: {why}\nsteps: {:#?}", world.log) };
    let mut out: BTreeMap<String, i64> = BTreeMap::new();
    let mut code_holders = 0;
    let (mut paid, mut refunded) = (0, 0);
    for (id, _) in &world.orders {
        let order = app.stored(id).await;
        let status = order["status"].as_str().unwrap().to_owned();
        let total = pence(&order["total"]);
        let shop_refunded = pence(&order["refunded"]);
        let intent = app.intent_of(id).await;
        let (stripe_status, amount, stripe_refunded) = match intent.is_empty() {
            true => ("none".to_owned(), 0, 0),
            false => at_stripe(&intent),
        };
        if stripe_refunded > amount {
            fail(format!(
                "{id}: Stripe refunded {stripe_refunded} of {amount}"
            ));
        }
        if shop_refunded != stripe_refunded {
            fail(format!(
                "{id} ({status}): the shop says {shop_refunded} refunded, Stripe {stripe_refunded}"
            ));
        }
        let sold = matches!(
            status.as_str(),
            "paid" | "shipped" | "delivered" | "refunded"
        );
        match (stripe_status.as_str(), status.as_str()) {
            ("succeeded", "paid" | "shipped" | "delivered") if shop_refunded < total => {}
            ("succeeded", "refunded") if shop_refunded == total => {}
            ("succeeded", "expired" | "cancelled") if shop_refunded == amount => {}
            ("canceled" | "none", "expired" | "cancelled") if shop_refunded == 0 => {}
            (stripe_status, status) => fail(format!(
                "{id}: the order is {status} with {shop_refunded} refunded of {total}, Stripe's payment {stripe_status} with {stripe_refunded} refunded"
            )),
        }
        if order["refunding"] != Value::Null {
            fail(format!("{id}: a refund claim never settled"));
        }
        if sold {
            paid += total;
            refunded += shop_refunded;
            for line in order["product"].as_array().unwrap() {
                *out.entry(line["product"].as_str().unwrap().to_owned())
                    .or_default() += line["qty"].as_i64().unwrap();
            }
            for refund in order["refunds"].as_array().unwrap() {
                if refund["restocked"] == true {
                    for line in refund["lines"].as_array().unwrap() {
                        *out.entry(line["product"].as_str().unwrap().to_owned())
                            .or_default() -= line["qty"].as_i64().unwrap();
                    }
                }
            }
            if status != "refunded" && order["code"] == world.code.as_str() {
                code_holders += 1;
            }
        }
    }
    for drink in &world.drinks {
        let stock = app.stock(drink).await as i64;
        let held = out.get(drink).copied().unwrap_or(0);
        if stock + held != STOCK as i64 {
            fail(format!(
                "{drink}: {stock} in stock and {held} sold and kept make {} of {STOCK}",
                stock + held
            ));
        }
    }
    let uses = app.code_uses(&world.code).await as i64;
    if uses != code_holders {
        fail(format!(
            "the code has {uses} uses, {code_holders} orders that stand hold it"
        ));
    }
    let results = app
        .admin(Method::GET, "/api/order/results/", None)
        .await
        .body;
    let months = results["results"].as_array().unwrap();
    let sum = |field: &str| months.iter().map(|m| pence(&m[field])).sum::<i64>();
    if (sum("totalPaid"), sum("totalRefunded"), sum("totalPayments"))
        != (paid, refunded, paid - refunded)
    {
        fail(format!(
            "results: paid {} refunded {} kept {}; the orders: paid {paid} refunded {refunded}",
            sum("totalPaid"),
            sum("totalRefunded"),
            sum("totalPayments")
        ));
    }
}

#[tokio::test]
async fn money_and_orders_stay_in_step_whatever_the_interleaving() {
    let first_seed = knob("MONEY_PROPERTY_SEED", 20_260_322);
    let runs = knob("MONEY_PROPERTY_RUNS", 2);
    let steps = knob("MONEY_PROPERTY_STEPS", 30);
    for run in 0..runs {
        let seed = first_seed.wrapping_add(run);
        let app = spawn_app_with_own_stripe().await;
        let mut drinks = Vec::new();
        for name in ["Cola", "Lemonade"] {
            drinks.push(app.drink(name, 2.5, STOCK as u32, 0).await);
        }
        let code = format!("PROP{run}");
        app.code(json!({"code": code, "discount": 10})).await;
        let mut world = World {
            app: &app,
            rng: Rng(seed),
            drinks,
            code,
            orders: Vec::new(),
            queue: Vec::new(),
            seen: HashSet::new(),
            deleted_drinks: HashSet::new(),
            code_deleted: false,
            log: vec![format!("seed {seed}")],
            placed: 0,
        };
        for _ in 0..steps {
            match world.rng.below(100) {
                0..=13 => world.checkout(false).await,
                14..=23 => world.checkout(true).await,
                24..=31 => world.three_ds().await,
                32..=41 => world.pull_events().await,
                42..=55 => world.deliver(true).await,
                56..=63 => world.admin_move().await,
                64..=73 => world.admin_refund().await,
                74..=78 => world.dashboard_refund().await,
                79..=81 => world.fail_a_refund().await,
                82..=87 => world.expire().await,
                88..=92 => world.bin().await,
                _ => world.stripe_trouble(),
            }
        }
        settle(&mut world).await;
        check(&world, seed).await;
    }
}
