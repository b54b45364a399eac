//! The local store kept on disk (scripts/moto_serial.py --state): what was written is there after a
//! restart, a stop mid-way leaves a file that loads, and an unreadable file is set aside, never fatal.

use std::path::PathBuf;
use testkit::emulator::Emulator;

fn folder() -> PathBuf {
    let path = std::env::temp_dir().join(format!("state-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&path).unwrap();
    path
}

async fn put(emulator: &Emulator, table: &str, id: &str) {
    let dynamodb = shared::aws::dynamodb(&emulator.sdk_config().await);
    dynamodb
        .put_item()
        .table_name(table)
        .item("pk", shared::dynamo::s(id))
        .item("sk", shared::dynamo::s("ITEM"))
        .send()
        .await
        .unwrap();
}

async fn ids(emulator: &Emulator, table: &str) -> Vec<String> {
    let dynamodb = shared::aws::dynamodb(&emulator.sdk_config().await);
    let mut ids: Vec<String> = dynamodb
        .scan()
        .table_name(table)
        .send()
        .await
        .unwrap()
        .items()
        .iter()
        .map(|item| item["pk"].as_s().unwrap().clone())
        .collect();
    ids.sort();
    ids
}

async fn stop_and_wait(emulator: &Emulator) {
    emulator.stop();
    let pid = emulator.pid.unwrap();
    for _ in 0..100 {
        if !std::path::Path::new(&format!("/proc/{pid}")).exists()
            || std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|stat| stat.contains(") Z "))
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the emulator did not stop");
}

#[tokio::test]
async fn what_was_written_is_back_after_a_restart() {
    let dir = folder();
    let file = dir.join("moto.pickle");
    let first = Emulator::start_keeping(Some(&file)).unwrap();
    let template = testkit::emulator::Template::load_default().unwrap();
    let names = testkit::emulator::LocalNames::unique();
    let dynamodb = shared::aws::dynamodb(&first.sdk_config().await);
    testkit::emulator::create_table(
        &dynamodb,
        &template,
        "CatalogTable",
        &names.table("CatalogTable"),
    )
    .await
    .unwrap();
    let table = names.table("CatalogTable");
    put(&first, &table, "kept-1").await;
    // A few seconds after a write the state is on disk, before any stop.
    let mut saved = false;
    for _ in 0..60 {
        if file.exists() {
            saved = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(saved, "the state was written within 6 s of the write");
    put(&first, &table, "kept-2").await;
    // SIGTERM (what Ctrl-C in make run and the gateway's stop send) writes what changed since.
    stop_and_wait(&first).await;
    let second = Emulator::start_keeping(Some(&file)).unwrap();
    assert_eq!(ids(&second, &table).await, vec!["kept-1", "kept-2"]);
    // Only the finished file is ever in place: no half-written temporaries are left behind either.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "moto.pickle")
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    second.stop();
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn an_unreadable_state_file_is_set_aside_and_the_emulator_starts_empty() {
    let dir = folder();
    let file = dir.join("moto.pickle");
    std::fs::write(&file, b"not a pickle at all").unwrap();
    let emulator = Emulator::start_keeping(Some(&file)).unwrap();
    let dynamodb = shared::aws::dynamodb(&emulator.sdk_config().await);
    let tables = dynamodb.list_tables().send().await.unwrap();
    assert!(tables.table_names().is_empty());
    assert!(dir.join("moto.pickle.unreadable").exists());
    emulator.stop();
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_queue_with_a_message_in_flight_is_kept() {
    let dir = folder();
    let file = dir.join("moto.pickle");
    let first = Emulator::start_keeping(Some(&file)).unwrap();
    let sqs = shared::aws::sqs(&first.sdk_config().await);
    // SQS's backend holds locks, which pickle refuses: every snapshot failed once a queue existed.
    let queue = sqs
        .create_queue()
        .queue_name("kept-queue")
        .send()
        .await
        .unwrap()
        .queue_url()
        .unwrap()
        .to_owned();
    for body in ["waiting", "in flight"] {
        sqs.send_message()
            .queue_url(&queue)
            .message_body(body)
            .send()
            .await
            .unwrap();
    }
    let taken = sqs
        .receive_message()
        .queue_url(&queue)
        .visibility_timeout(600)
        .send()
        .await
        .unwrap();
    assert_eq!(taken.messages().len(), 1);
    stop_and_wait(&first).await;

    let second = Emulator::start_keeping(Some(&file)).unwrap();
    let sqs = shared::aws::sqs(&second.sdk_config().await);
    let attributes = sqs
        .get_queue_attributes()
        .queue_url(&queue)
        .attribute_names(aws_sdk_sqs::types::QueueAttributeName::All)
        .send()
        .await
        .unwrap();
    let count = |name: aws_sdk_sqs::types::QueueAttributeName| {
        attributes.attributes().unwrap()[&name].clone()
    };
    assert_eq!(
        count(aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessages),
        "1"
    );
    assert_eq!(
        count(aws_sdk_sqs::types::QueueAttributeName::ApproximateNumberOfMessagesNotVisible),
        "1"
    );
    // The lock SQS waits on was made anew: the queue still takes and hands out messages.
    sqs.send_message()
        .queue_url(&queue)
        .message_body("after")
        .send()
        .await
        .unwrap();
    let bodies: Vec<String> = sqs
        .receive_message()
        .queue_url(&queue)
        .max_number_of_messages(10)
        .send()
        .await
        .unwrap()
        .messages()
        .iter()
        .filter_map(|m| m.body().map(str::to_owned))
        .collect();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    second.stop();
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_failed_snapshot_is_reported_and_logged_and_the_next_one_recovers() {
    let dir = folder();
    let state = dir.join("state");
    let file = state.join("moto.pickle");
    let log = dir.join("logs/emulator.log");
    let emulator = Emulator::start_logged(Some(&file), Some(&log)).unwrap();
    let template = testkit::emulator::Template::load_default().unwrap();
    let names = testkit::emulator::LocalNames::unique();
    let dynamodb = shared::aws::dynamodb(&emulator.sdk_config().await);
    let table = names.table("CatalogTable");
    // The folder is replaced by a file before the first snapshot: no snapshot can be written.
    std::fs::remove_dir_all(&state).ok();
    std::fs::write(&state, b"in the way").unwrap();
    testkit::emulator::create_table(&dynamodb, &template, "CatalogTable", &table)
        .await
        .unwrap();
    put(&emulator, &table, "unsaved").await;
    let report = wait_for(&emulator, |report| report.failures >= 1).await;
    let error = report.last_error.expect("the reason is told");
    assert!(!error.is_empty());
    assert_eq!(report.saved_at, None);
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("saving") && logged.contains("failed"),
        "{logged}"
    );

    // Once the folder can be written again the saver's retry (after its back-off) succeeds by itself.
    std::fs::remove_file(&state).unwrap();
    std::fs::create_dir_all(&state).unwrap();
    let report = wait_for(&emulator, |report| report.saved_at.is_some()).await;
    assert_eq!(report.last_error, None);
    stop_and_wait(&emulator).await;
    let again = Emulator::start_keeping(Some(&file)).unwrap();
    assert_eq!(ids(&again, &table).await, vec!["unsaved"]);
    again.stop();
    let _ = std::fs::remove_dir_all(dir);
}

/// Polls `GET /_shop/state` (as the gateway's watcher does) until `done`, for at most 20 s.
async fn wait_for(
    emulator: &Emulator,
    done: impl Fn(&local::keep::Snapshots) -> bool,
) -> local::keep::Snapshots {
    let mut last = None;
    for _ in 0..200 {
        let report = local::keep::Snapshots::read(emulator).unwrap();
        if done(&report) {
            return report;
        }
        last = Some(report);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the snapshots never got there: {last:?}");
}
