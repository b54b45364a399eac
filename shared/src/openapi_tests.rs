//! The OpenAPI description of routes declared through the routes table (shared::routes).

use crate::auth::{Admin, Auth, Customer};
use crate::extract::{Path, Query};
use crate::json::{Created, Json};
use crate::openapi::*;
use crate::routes::ApiRoutes;
use crate::ApiResult;
use axum::extract::FromRef;
use schemars::generate::Contract;
use schemars::{JsonSchema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

/// The routers' state: the handlers are only described here, never called.
#[derive(Clone)]
struct Described;

impl FromRef<Described> for Arc<Auth> {
    fn from_ref(_: &Described) -> Self {
        unreachable!("no handler runs in these tests")
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ThingInput {
    #[schemars(length(min = 1, max = 40))]
    name: String,
}

#[derive(Serialize, JsonSchema)]
struct Thing {
    #[serde(rename = "_id")]
    id: String,
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Search {
    /// Words to look for.
    q: Option<String>,
}

async fn list(Query(search): Query<Search>) -> ApiResult<Json<Vec<Thing>>> {
    Ok(Json(
        search
            .q
            .into_iter()
            .map(|name| Thing {
                id: "1".into(),
                name,
            })
            .collect(),
    ))
}

async fn create(_: Admin, Json(input): Json<ThingInput>) -> ApiResult<Created<Thing>> {
    Ok(Created(Thing {
        id: "1".into(),
        name: input.name,
    }))
}

async fn remove(_: Customer, Path(_): Path<String>) -> axum::response::Response {
    axum::response::IntoResponse::into_response(())
}

fn routes() -> Vec<RouteSpec> {
    ApiRoutes::<Described>::new()
        .get("/api/things/", Access::Public, list)
        .summary("The things")
        .post("/api/things/create/", Access::Admin, create)
        .fails(&[409])
        .delete("/api/things/{id}", Access::Customer, remove)
        .answers_empty(204, "Deleted")
        .specs()
        .to_vec()
}

#[test]
fn a_route_is_described_by_its_extractors_and_reply() {
    let document = document(
        "Things",
        "1",
        &[Function {
            name: "things",
            routes: routes(),
        }],
    );
    let list = &document["paths"]["/api/things/"]["get"];
    assert_eq!(list["summary"], "The things");
    assert_eq!(list["parameters"][0]["name"], "q");
    assert_eq!(list["parameters"][0]["in"], "query");
    assert_eq!(list["parameters"][0]["description"], "Words to look for.");
    assert_eq!(
        list["responses"]["200"]["content"]["application/json"]["schema"]["items"]["$ref"],
        "#/components/schemas/Thing"
    );
    assert!(list.get("security").is_none());

    let create = &document["paths"]["/api/things/create/"]["post"];
    assert_eq!(create["operationId"], "create");
    assert_eq!(create["security"][0]["bearerAuth"], json!([]));
    let statuses: Vec<&String> = create["responses"].as_object().unwrap().keys().collect();
    assert_eq!(
        statuses,
        ["201", "400", "401", "403", "409", "413", "415", "422"]
    );
    let input = &document["components"]["schemas"]["ThingInput"];
    assert_eq!(input["additionalProperties"], false);
    assert_eq!(input["properties"]["name"]["maxLength"], 40);
    assert_eq!(
        document["components"]["schemas"]["Thing"]["required"],
        json!(["_id", "name"])
    );

    let remove = &document["paths"]["/api/things/{id}"]["delete"];
    assert_eq!(remove["parameters"][0]["in"], "path");
    assert!(remove["responses"]["204"].get("content").is_none());
    assert!(remove["responses"]["404"].is_object());
    assert_eq!(
        remove["responses"]["401"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Message"
    );
}

/// Only its schema is read.
#[derive(JsonSchema)]
#[allow(dead_code)]
struct ThingUpdate {
    name: Option<String>,
    size: Option<crate::json::NumberField>,
    note: Option<String>,
}

#[test]
fn a_create_body_requires_its_fields_and_refuses_their_nulls() {
    let mut generator = SchemaGenerator::new(settings(Contract::Deserialize));
    let schema =
        requiring::<ThingUpdate>(&mut generator, "A new thing", &["name", "size"]).to_value();
    assert_eq!(schema["required"], json!(["name", "size"]));
    assert_eq!(schema["properties"]["name"]["type"], "string");
    assert_eq!(
        schema["properties"]["size"]["$ref"],
        "#/components/schemas/NumberField"
    );
    assert_eq!(
        schema["properties"]["note"]["type"],
        json!(["string", "null"])
    );
}

#[test]
#[should_panic(expected = "takes no signed-in user")]
fn a_protected_route_whose_handler_takes_no_user_is_refused() {
    ApiRoutes::<Described>::new().get("/api/secret/", Access::Admin, || async { Json(1_u8) });
}

#[test]
#[should_panic(expected = "says nothing of its success")]
fn a_reply_built_by_hand_must_be_described() {
    let _ = ApiRoutes::<Described>::new()
        .delete("/api/things/{id}", Access::Customer, remove)
        .specs()
        .to_vec();
}

#[test]
fn sized_integers_carry_their_types_bounds_and_tighter_ones_stay() {
    let mut document = json!({"a": {"type": ["integer", "null"], "format": "uint32", "minimum": 1},
        "b": [{"type": "integer", "format": "int8"}], "c": {"type": "integer", "format": "uint16",
        "maximum": 10}, "d": {"type": "string", "format": "date-time"}});
    bound_integers(&mut document);
    assert_eq!(document["a"]["minimum"], 1);
    assert_eq!(document["a"]["maximum"], 4_294_967_295_u64);
    assert_eq!(document["b"][0]["minimum"], -128);
    assert_eq!(document["b"][0]["maximum"], 127);
    assert_eq!(document["c"]["maximum"], 10);
    assert_eq!(document["c"]["minimum"], 0);
    assert_eq!(document["d"].get("maximum"), None);
}
