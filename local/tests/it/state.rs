//! The local store kept on disk (scripts/moto_serial.py --state): what was written is there after a
//! restart, a stop mid-way leaves a file that loads, and an unreadable file is set aside, never fatal.

use shared::emulator::Emulator;
use std::path::PathBuf;

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
    let template = shared::emulator::Template::load_default().unwrap();
    let names = shared::emulator::LocalNames::unique();
    let dynamodb = shared::aws::dynamodb(&first.sdk_config().await);
    shared::emulator::create_table(
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
