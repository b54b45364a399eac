//! `make backfill-person STAGE=...`: tags a deployed stage's personal items written before the `person`
//! index (see local::backfill), with the operator's credentials. The tables come from the environment
//! (`REVIEWS_TABLE`, `CODES_TABLE`, `CONTENT_TABLE`, `MAIL_TABLE`), which scripts/deploy.py sets from the stack.

use local::backfill::{run, Tables};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let var = |name: &str| {
        std::env::var(name)
            .map_err(|_| format!("{name} is not set: run it as make backfill-person STAGE=..."))
    };
    let tables = Tables {
        reviews: var("REVIEWS_TABLE")?,
        codes: var("CODES_TABLE")?,
        content: var("CONTENT_TABLE")?,
        mail: var("MAIL_TABLE")?,
    };
    let config = shared::aws::sdk_config().await;
    let tagged = run(&shared::aws::dynamodb(&config), &tables)
        .await
        .map_err(|error| format!("the backfill stopped: {error:?}"))?;
    println!(
        "Tagged {} items for the data rights' index: reviews {}, codes {}, contact messages {}, mail {}.",
        tagged.total(),
        tagged.reviews,
        tagged.codes,
        tagged.content,
        tagged.mail
    );
    Ok(())
}
