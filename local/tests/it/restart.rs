//! `make run`, use the shop, Ctrl-C, `make run` again: everything is still there. The real `local` binary
//! on a state folder of its own, stopped as a terminal's Ctrl-C stops it (SIGINT to the whole process
//! group: the gateway, the emulator and localstripe at once), and started again.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ADMIN: &str = "admin@example.com";
const CUSTOMER: &str = "restart.customer@example.com";
const SUBSCRIBER: &str = "restart.reader@example.com";

struct Folder(PathBuf);

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One `local` process in a process group of its own, as a terminal runs `make run`.
struct Shop {
    child: Child,
    address: String,
}

impl Shop {
    fn start(folder: &Path, output: &str) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = launch(folder, port, output);
        let shop = Shop {
            child,
            address: format!("127.0.0.1:{port}"),
        };
        shop.wait_until_serving(folder.join(output));
        shop
    }

    fn wait_until_serving(&self, output: PathBuf) {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(180) {
            if let Ok((200, _)) = request(&self.address, "GET", "/api/product/", None, None) {
                return;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        panic!(
            "the gateway did not serve within 3 minutes:\n{}",
            std::fs::read_to_string(output).unwrap_or_default()
        );
    }

    /// Ctrl-C: SIGINT to every process of the group, then waits for the gateway to finish saving.
    fn interrupt(mut self) {
        let group = self.child.id() as i32;
        // SAFETY: kill(2) on a process group this test started; no memory is touched.
        unsafe {
            libc::kill(-group, libc::SIGINT);
        }
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(90) {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the gateway stopped with {status}");
                // The emulator and localstripe go with it (they are in the same group); wait for the group.
                while started.elapsed() < Duration::from_secs(90) {
                    // SAFETY: signal 0 only asks whether the group still has members.
                    if unsafe { libc::kill(-group, 0) } != 0 {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                panic!("the emulator or localstripe outlived the gateway");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("the gateway did not stop within 90 s of Ctrl-C");
    }

    fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let body = body.map(|body| ("application/json".to_owned(), body.to_string().into_bytes()));
        let (status, bytes) = request(&self.address, method, path, token, body).unwrap();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, value)
    }

    fn ok(&self, method: &str, path: &str, token: Option<&str>, body: Option<Value>) -> Value {
        let (status, value) = self.call(method, path, token, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path}: {status} {value}"
        );
        value
    }

    /// The text of the newest e-mail to `email`, once the queue has delivered it.
    fn newest_mail_to(&self, email: &str) -> String {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            let outbox = self.ok("GET", &format!("/_local/outbox?to={email}"), None, None);
            if let Some(text) = outbox[0]["text"].as_str() {
                return text.to_owned();
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("no e-mail reached {email} within 30 s");
    }

    /// Logs `email` in with the code the shop mails (read from the outbox): the token.
    fn log_in(&self, email: &str) -> String {
        self.ok(
            "POST",
            "/api/user/login/",
            None,
            Some(json!({ "email": email })),
        );
        let text = self.newest_mail_to(email);
        let code = text
            .split(|c: char| !c.is_ascii_digit())
            .find(|run| run.len() == 6)
            .unwrap_or_else(|| panic!("no code in {text}"));
        let verified = self.ok(
            "POST",
            "/api/user/verify/",
            None,
            Some(json!({ "email": email, "code": code })),
        );
        verified["token"].as_str().unwrap().to_owned()
    }
}

impl Drop for Shop {
    fn drop(&mut self) {
        // A failed assertion must not leave a gateway (and its emulator) running.
        if let Ok(None) = self.child.try_wait() {
            // SAFETY: as in `interrupt`.
            unsafe {
                libc::kill(-(self.child.id() as i32), libc::SIGKILL);
            }
            let _ = self.child.wait();
        }
    }
}

fn launch(folder: &Path, port: u16, output: &str) -> Child {
    use std::os::unix::process::CommandExt;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(folder.join(output))
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_local"))
        .env("LOCAL_STATE", folder.join("state"))
        .env("PORT", port.to_string())
        .env("FRONTEND_DIST", folder.join("dist"))
        // Restarts are what is tested here, not the pages (the prerender would fetch every drink).
        .env("LOCAL_PRERENDER", "0")
        .env_remove("AWS_ENDPOINT_URL")
        .env_remove("STRIPE_API_BASE")
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .process_group(0)
        .spawn()
        .unwrap()
}

/// A blocking HTTP/1.0 request: enough for the gateway, without an HTTP client in the crate.
fn request(
    address: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<(String, Vec<u8>)>,
) -> std::io::Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut head = format!("{method} {path} HTTP/1.0\r\nHost: {address}\r\n");
    if let Some(token) = token {
        head += &format!("Authorization: Bearer {token}\r\n");
    }
    let (content_type, bytes) = body.unwrap_or_default();
    if !content_type.is_empty() {
        head += &format!("Content-Type: {content_type}\r\n");
    }
    head += &format!("Content-Length: {}\r\n\r\n", bytes.len());
    stream.write_all(head.as_bytes())?;
    stream.write_all(&bytes)?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let split = response
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no header end"))?;
    let status = String::from_utf8_lossy(&response[..split])
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status"))?;
    Ok((status, response[split + 4..].to_vec()))
}

/// A real (tiny) PNG, as the upload's sniffing wants it.
fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0".to_vec();
    bytes.extend_from_slice(&[0x1f, 0x15, 0xc4, 0x89]);
    bytes
}

fn upload(shop: &Shop, token: &str, image: &[u8]) -> String {
    const BOUNDARY: &str = "restart-test-boundary";
    let mut form = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"can.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    form.extend_from_slice(image);
    form.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    let content_type = format!("multipart/form-data; boundary={BOUNDARY}");
    let (status, bytes) = request(
        &shop.address,
        "POST",
        "/api/uploading/",
        Some(token),
        Some((content_type, form)),
    )
    .unwrap();
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&bytes));
    serde_json::from_slice::<String>(&bytes).unwrap()
}

/// A PaymentMethod for Stripe's 4242 test card, made through the gateway's Stripe.js proxy as the browser does.
fn card(shop: &Shop) -> String {
    let form = "type=card&card%5Bnumber%5D=4242424242424242&card%5Bexp_month%5D=12&card%5Bexp_year%5D=2034\
                &card%5Bcvc%5D=123";
    let (status, bytes) = request(
        &shop.address,
        "POST",
        "/_local/stripe/v1/payment_methods",
        None,
        Some((
            "application/x-www-form-urlencoded".to_owned(),
            form.as_bytes().to_vec(),
        )),
    )
    .unwrap();
    let made: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, 200, "{made}");
    made["id"].as_str().unwrap().to_owned()
}

/// The seeded drinks anyone may buy (a drink with a minimum age asks the buyer's date of birth), by id.
fn drink_ids(shop: &Shop) -> Vec<String> {
    let mut ids: Vec<String> = shop
        .ok("GET", "/api/product/", None, None)
        .as_array()
        .unwrap()
        .iter()
        .filter(|drink| drink["minimumAge"].is_null())
        .map(|drink| drink["_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids
}

#[test]
fn every_kind_of_change_survives_ctrl_c_and_a_second_gateway_is_refused() {
    let folder =
        Folder(std::env::temp_dir().join(format!("restart-{}", uuid::Uuid::new_v4().simple())));
    std::fs::create_dir_all(folder.0.join("dist")).unwrap();
    std::fs::write(
        folder.0.join("dist/index.html"),
        "<!doctype html><title>shop</title>",
    )
    .unwrap();

    let shop = Shop::start(&folder.0, "first.log");
    let admin = shop.log_in(ADMIN);
    let customer = shop.log_in(CUSTOMER);
    let seeded = drink_ids(&shop);
    assert!(
        seeded.len() >= 2,
        "the demo shop is seeded on a fresh folder: {seeded:?}"
    );
    let (drink, gone) = (seeded[0].clone(), seeded[1].clone());

    let review = shop.ok(
        "POST",
        "/api/reviews/create/",
        None,
        Some(json!({
            "rating": 4, "comment": "kept across a restart", "fullname": "Rae Stone",
            "email": CUSTOMER, "products": drink,
        })),
    );
    assert_eq!(review["comment"], "kept across a restart");

    let order = shop.ok(
        "POST",
        "/api/order/create/",
        None,
        Some(json!({
            "fullname": "Amira Haddad", "address": "1 High St, Leeds LS1 1AA", "phone": "07700 900123",
            "email": CUSTOMER, "message": "", "product": [{"product": drink, "qty": 2}],
            "payment": {"provider": "stripe", "paymentMethod": card(&shop)},
        })),
    );
    let order = order
        .as_str()
        .expect("paid at once: the order id")
        .to_owned();

    shop.ok(
        "POST",
        "/api/subscription/create/",
        None,
        Some(json!({ "email": SUBSCRIBER, "fullname": "Reader", "lists": ["Newsletter"] })),
    );
    // Double opt-in: the reader follows the link the confirmation e-mail carries, and presses the page's
    // button.
    let confirmation = shop.newest_mail_to(SUBSCRIBER);
    let link = confirmation
        .split_whitespace()
        .find(|word| word.contains("/confirm/subscription?token="))
        .expect("the confirmation link");
    let token = link.rsplit('=').next().unwrap();
    let (status, _) = shop.call(
        "POST",
        "/api/subscription/confirm/",
        None,
        Some(json!({ "token": token })),
    );
    assert_eq!(status, 200, "{link}");
    let mailing = shop.ok(
        "POST",
        "/api/subscription/mailer/",
        Some(&admin),
        Some(json!({
            "MailList": ["Newsletter"],
            "data": {"subject": "Kept news", "sections": [{"title": "Still here", "description": "After a restart"}]},
        })),
    );
    let mailing = mailing["_id"].as_str().unwrap().to_owned();

    let image = upload(&shop, &admin, &png());
    shop.ok(
        "DELETE",
        &format!("/api/product/delete/{gone}"),
        Some(&admin),
        None,
    );
    let stock =
        shop.ok("GET", &format!("/api/product/{drink}"), None, None)["countInStock"].clone();
    let drinks = drink_ids(&shop);
    let paid = shop.ok(
        "GET",
        &format!("/api/order/Orderdetails/{order}"),
        Some(&customer),
        None,
    );
    assert_eq!(paid["status"], "paid", "{paid}");
    shop.interrupt();

    let again = Shop::start(&folder.0, "second.log");
    // A third gateway on the same folder while the second runs: refused at once, saying why.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let status = launch(&folder.0, port, "third.log").wait().unwrap();
    let said = std::fs::read_to_string(folder.0.join("third.log")).unwrap();
    assert!(
        !status.success(),
        "a second gateway on one folder must refuse: {said}"
    );
    assert!(said.contains("already running"), "{said}");

    assert_eq!(
        drink_ids(&again),
        drinks,
        "the same drinks, the deleted one still gone: no re-seed"
    );
    assert_eq!(
        again.ok("GET", &format!("/api/product/{drink}"), None, None)["countInStock"],
        stock
    );
    let reviews = again.ok(
        "GET",
        &format!("/api/home_uk/palestine/comment/reviews?ProductsId={drink}"),
        None,
        None,
    );
    assert!(
        reviews.to_string().contains("kept across a restart"),
        "the review is back: {reviews}"
    );
    // The old tokens still work: the signing secret and the accounts were kept.
    let kept = again.ok(
        "GET",
        &format!("/api/order/Orderdetails/{order}"),
        Some(&customer),
        None,
    );
    assert_eq!(kept["status"], "paid", "{kept}");
    assert_eq!(kept["totalPrice"], paid["totalPrice"]);
    let profile = again.ok("GET", "/api/user/profile/", Some(&customer), None);
    assert!(profile.to_string().contains(CUSTOMER), "{profile}");
    let kept = again.ok(
        "GET",
        &format!("/api/subscription/mailings/{mailing}"),
        Some(&admin),
        None,
    );
    assert_eq!(kept["subject"], "Kept news", "{kept}");
    let (status, bytes) = request(
        &again.address,
        "GET",
        &format!("/uploads/{image}"),
        None,
        None,
    )
    .unwrap();
    assert_eq!(
        (status, bytes),
        (200, png()),
        "the uploaded image is served again"
    );
    // The outbox (the e-mail the emulator keeps) survived too: the login codes are still there.
    let outbox = again.ok("GET", &format!("/_local/outbox?to={CUSTOMER}"), None, None);
    assert!(!outbox.as_array().unwrap().is_empty(), "{outbox}");
    again.interrupt();
}
