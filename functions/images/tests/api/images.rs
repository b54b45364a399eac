//! Uploads checked by their bytes, attached to the item that shows them, listed and deleted.

use crate::helpers::{form, jpeg, png, spawn_app};
use http::{Method, StatusCode};
use serde_json::json;

#[tokio::test]
async fn an_upload_is_stored_under_a_server_name_with_its_real_type() {
    let app = spawn_app().await;
    // The file says it is a .gif; its bytes say PNG, and the bytes win.
    let reply = app
        .upload("/api/uploading/", form(&[("image", "holiday.gif", &png())]))
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let name = reply.body.as_str().unwrap().to_owned();
    assert!(
        name.ends_with(".png") && !name.contains("holiday"),
        "{name}"
    );
    assert_eq!(app.stored_type(&name).await.as_deref(), Some("image/png"));
    assert_eq!(app.names().await, vec![name]);
}

#[tokio::test]
async fn what_is_not_an_accepted_image_is_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let big = {
        let mut bytes = png();
        bytes.resize(images::MAX_IMAGE_BYTES + 1, 0);
        bytes
    };
    let cases: Vec<(Vec<u8>, StatusCode, &str)> = vec![
        (
            form(&[(
                "image",
                "logo.svg",
                b"<svg xmlns='http://www.w3.org/2000/svg'/>",
            )]),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "image: logo.svg is not a PNG, JPEG, WebP or GIF image",
        ),
        (
            form(&[("image", "empty.png", b"")]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "image: empty.png is empty",
        ),
        (
            form(&[("picture", "a.png", &png())]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "image: choose an image to upload",
        ),
        (
            form(&[("image", "huge.png", &big)]),
            StatusCode::PAYLOAD_TOO_LARGE,
            "image: huge.png is over 2 MB",
        ),
        (
            form(&[("image", "a.png", &png()), ("image", "b.jpg", &jpeg())]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "image: this takes one image; use /api/new/ for several",
        ),
    ];
    for (body, status, message) in cases {
        let reply = app.upload("/api/uploading/", body).await;
        assert_eq!(reply.status, status, "{message}: {}", reply.body);
        assert_eq!(reply.body["message"], message);
    }
    let json = app
        .admin(
            Method::POST,
            "/api/uploading/",
            Some(json!({"image": "a.png"})),
        )
        .await;
    assert_eq!(
        json.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{}",
        json.body
    );
    assert!(app.names().await.is_empty(), "nothing stored");
}

#[tokio::test]
async fn only_an_admin_uploads() {
    let app = spawn_app().await;
    let body = || form(&[("image", "a.png", &png())]);
    let none = app.upload_as("/api/uploading/", body(), None).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    assert_eq!(none.body["message"], "Not authorized");
    let customer = app
        .upload_as("/api/uploading/", body(), Some(&app.customer))
        .await;
    assert_eq!(customer.status, StatusCode::FORBIDDEN);
    assert!(app.names().await.is_empty());
}

#[tokio::test]
async fn images_attach_to_a_drink_and_the_catalogue_shows_them() {
    let app = spawn_app().await;
    let drink = app.drink().await;
    let id = drink["_id"].as_str().unwrap();
    let reply = app
        .upload(
            &format!("/api/new/?mode=14&id={id}"),
            form(&[
                ("image", "front.png", &png()),
                ("image", "back.jpg", &jpeg()),
            ]),
        )
        .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let names: Vec<String> = serde_json::from_value(reply.body).unwrap();
    assert_eq!(names.len(), 2);
    assert!(names[0].ends_with(".png") && names[1].ends_with(".jpg"));
    assert_eq!(app.product(id).await["image"], json!(names));

    // A second upload appends after the first.
    let again = app
        .upload(
            &format!("/api/new/?mode=14&id={id}"),
            form(&[("image", "side.png", &png())]),
        )
        .await;
    assert_eq!(again.status, StatusCode::CREATED);
    assert_eq!(app.product(id).await["image"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn an_unknown_item_or_a_full_list_stores_nothing() {
    let app = spawn_app().await;
    let unknown = app
        .upload(
            "/api/new/?mode=12&id=no-such-category",
            form(&[("image", "a.png", &png())]),
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{}", unknown.body);
    assert_eq!(
        unknown.body["message"],
        "No category has the id no-such-category"
    );
    assert!(
        app.names().await.is_empty(),
        "the stored object was removed again"
    );
    // The id's cap counts characters, as the document's maxLength does: 64 two-byte characters name an
    // item (there is none: 404), 65 are refused as no id at all (422).
    let at_cap = app
        .upload(
            &format!("/api/new/?mode=12&id={}", "%C3%A9".repeat(64)),
            form(&[("image", "a.png", &png())]),
        )
        .await;
    assert_eq!(at_cap.status, StatusCode::NOT_FOUND, "{}", at_cap.body);
    let over = app
        .upload(
            &format!("/api/new/?mode=12&id={}", "%C3%A9".repeat(65)),
            form(&[("image", "a.png", &png())]),
        )
        .await;
    assert_eq!(
        over.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        over.body
    );

    let drink = app.drink().await;
    let id = drink["_id"].as_str().unwrap();
    let four = || {
        form(&[
            ("image", "1.png", &png()),
            ("image", "2.png", &png()),
            ("image", "3.png", &png()),
            ("image", "4.png", &png()),
        ])
    };
    for _ in 0..2 {
        let reply = app
            .upload(&format!("/api/new/?mode=14&id={id}"), four())
            .await;
        assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    }
    let full = app
        .upload(&format!("/api/new/?mode=14&id={id}"), four())
        .await;
    assert_eq!(
        full.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        full.body
    );
    assert_eq!(
        full.body["message"],
        "image: an item holds at most 10 images; delete some first"
    );
    assert_eq!(app.product(id).await["image"].as_array().unwrap().len(), 8);
    assert_eq!(app.names().await.len(), 8);
}

#[tokio::test]
async fn modes_name_the_target_and_the_site_info_needs_no_id() {
    let app = spawn_app().await;
    let png_form = || form(&[("image", "a.png", &png())]);
    for (uri, status, message) in [
        (
            "/api/new/?mode=3&id=x",
            StatusCode::UNPROCESSABLE_ENTITY,
            "mode must be 8 (site info), 10 (link entry), 12 (category), 14 (drink) or 22 (gallery)",
        ),
        (
            "/api/new/?mode=20&id=x",
            StatusCode::UNPROCESSABLE_ENTITY,
            "mode 20: image upload for reviews is temporarily disabled",
        ),
        (
            "/api/new/?mode=14",
            StatusCode::UNPROCESSABLE_ENTITY,
            "id: name the item to attach to",
        ),
    ] {
        let reply = app.upload(uri, png_form()).await;
        assert_eq!(reply.status, status, "{uri}: {}", reply.body);
        assert_eq!(reply.body["message"], message);
    }
    assert!(app.names().await.is_empty());

    let gallery = app.upload("/api/new/?mode=22", png_form()).await;
    assert_eq!(gallery.status, StatusCode::CREATED, "{}", gallery.body);

    let site = app
        .content
        .call(
            Method::POST,
            "/api/connect/create/",
            Some(&app.admin),
            Some(json!({"name": "The Shop", "email": "hello@example.com"})),
        )
        .await;
    assert!(site.status.is_success(), "{}", site.body);
    let attached = app.upload("/api/new/?mode=8", png_form()).await;
    assert_eq!(attached.status, StatusCode::CREATED, "{}", attached.body);
    let info = app
        .content
        .call(
            Method::GET,
            "/api/connect/uk/palestine/connect/",
            None,
            None,
        )
        .await
        .body;
    assert_eq!(info["image"], attached.body);
}

#[tokio::test]
async fn images_are_deleted_one_by_one_or_by_list() {
    let app = spawn_app().await;
    let mut names = Vec::new();
    for _ in 0..3 {
        let reply = app
            .upload("/api/uploading/", form(&[("image", "a.png", &png())]))
            .await;
        names.push(reply.body.as_str().unwrap().to_owned());
    }
    let one = app
        .admin(
            Method::DELETE,
            &format!("/api/delete/image/{}", names[0]),
            None,
        )
        .await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.body);
    assert_eq!(one.body["deleted"], json!([names[0]]));
    let again = app
        .admin(
            Method::DELETE,
            &format!("/api/delete/image/{}", names[0]),
            None,
        )
        .await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
    let bad = app
        .admin(
            Method::DELETE,
            "/api/delete/image/..%2Fweb%2Findex.html",
            None,
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);

    let refused = app
        .admin(
            Method::POST,
            "/api/delete/array/",
            Some(json!({"images": [names[1], "../secret"]})),
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.names().await.len(), 2, "a bad name deletes nothing");
    let list = app
        .admin(
            Method::POST,
            "/api/delete/array/",
            Some(json!({"images": [names[1], names[2], names[0]]})),
        )
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.body);
    assert_eq!(list.body["deleted"], json!([names[1], names[2]]));
    assert!(app.names().await.is_empty());
}
