//! The local shop's data folder under `make run`: one gateway at a time on it (a lock file), the emulator's
//! and localstripe's output in a logs folder beside it (`.run/logs/`), and a warning on the console whenever
//! a snapshot of the store fails, so a failure is never silent. The shop keeps serving either way.

use serde::Deserialize;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;
use testkit::emulator::{BoxError, Emulator};

/// Held while a gateway uses a state folder; the operating system lets it go when the process ends, however
/// it ends, so a crash never leaves a stale lock behind.
pub struct StateLock {
    _file: File,
}

/// Takes `state`'s lock, or says who holds it. Two emulators on one folder would overwrite each other's
/// snapshots, each losing the other's changes.
pub fn lock(state: &Path) -> Result<StateLock, BoxError> {
    std::fs::create_dir_all(state)
        .map_err(|e| format!("cannot make the state folder {}: {e}", state.display()))?;
    let path = state.join("gateway.lock");
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {
            file.set_len(0)?;
            write!(file, "{}", std::process::id())?;
            Ok(StateLock { _file: file })
        }
        Err(TryLockError::WouldBlock) => {
            let holder = std::fs::read_to_string(&path).unwrap_or_default();
            let holder = holder.trim();
            let who = if holder.is_empty() {
                String::new()
            } else {
                format!(" (process {holder})")
            };
            Err(format!(
                "Another local shop{who} is already running on {}. Stop it first (Ctrl-C in its terminal), \
                 or give this one a folder of its own with LOCAL_STATE=path (or LOCAL_STATE=memory).",
                state.display()
            )
            .into())
        }
        Err(TryLockError::Error(error)) => {
            Err(format!("cannot lock {}: {error}", path.display()).into())
        }
    }
}

/// Where the emulator's and localstripe's output go for a state folder: `logs/` beside it (`.run/logs/`
/// for `make run`'s `.run/state/`).
pub fn logs_dir(state: &Path) -> PathBuf {
    state.parent().unwrap_or(state).join("logs")
}

/// How the emulator's snapshots go, as scripts/moto_serial.py's `GET /_shop/state` answers.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Snapshots {
    #[serde(default)]
    pub keeping: bool,
    #[serde(default)]
    pub failures: u64,
    pub last_error: Option<String>,
    pub saved_at: Option<String>,
}

impl Snapshots {
    pub fn read(emulator: &Emulator) -> Result<Self, BoxError> {
        let body = emulator.get("/_shop/state")?;
        Ok(serde_json::from_str(&body)?)
    }
}

/// What to print when the snapshots went from `before` to `now`: a warning when they start failing (or fail
/// for another reason), a note when they work again. The retries of one lasting failure go to the log only.
pub fn news(before: &Snapshots, now: &Snapshots, log: &Path) -> Option<String> {
    if now.failures > before.failures && now.last_error != before.last_error {
        let since = now
            .saved_at
            .as_deref()
            .map_or("the shop started".to_owned(), |at| format!("{at} UTC"));
        return Some(format!(
            "WARNING: the local store could not be saved: {}. The shop keeps serving, but the changes since {since} \
             are only in memory until a snapshot works (it tries again after the next change). Details: {}",
            now.last_error.as_deref().unwrap_or("no reason given"),
            log.display()
        ));
    }
    if before.last_error.is_some() && now.last_error.is_none() && now.saved_at != before.saved_at {
        return Some("The local store is saved again.".to_owned());
    }
    None
}

/// Polls the emulator's snapshots every `every` and prints [`news`] on the console (stderr) until the
/// gateway stops.
pub fn watch(emulator: Emulator, log: PathBuf, every: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut seen = Snapshots::default();
        let mut ticks = tokio::time::interval(every);
        loop {
            ticks.tick().await;
            let emulator = emulator.clone();
            let read = tokio::task::spawn_blocking(move || Snapshots::read(&emulator)).await;
            let Ok(Ok(now)) = read else { continue };
            if let Some(news) = news(&seen, &now, &log) {
                eprintln!("\n  {news}\n");
                tracing::warn!(%news, "local store");
            }
            seen = now;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_failure_is_a_warning_that_names_the_cause_and_the_log() {
        let ok = Snapshots {
            keeping: true,
            saved_at: Some("2026-11-24T10:00:00+00:00".to_owned()),
            ..Snapshots::default()
        };
        let failed = Snapshots {
            failures: 1,
            last_error: Some("PicklingError: cannot pickle".to_owned()),
            ..ok.clone()
        };
        let log = Path::new(".run/logs/emulator.log");
        let warning = news(&ok, &failed, log).unwrap();
        assert!(warning.starts_with("WARNING"), "{warning}");
        assert!(warning.contains("cannot pickle"), "{warning}");
        assert!(warning.contains(".run/logs/emulator.log"), "{warning}");
        assert!(warning.contains("2026-11-24T10:00:00"), "{warning}");
        assert_eq!(news(&failed, &failed, log), None, "said once");
        let retried = Snapshots {
            failures: 2,
            ..failed.clone()
        };
        assert_eq!(
            news(&failed, &retried, log),
            None,
            "a retry of the same failure is not news"
        );
        let other = Snapshots {
            failures: 3,
            last_error: Some("OSError: No space left on device".to_owned()),
            ..failed.clone()
        };
        assert!(news(&retried, &other, log)
            .unwrap()
            .contains("No space left"));
        let again = Snapshots {
            saved_at: Some("2026-11-24T10:05:00+00:00".to_owned()),
            last_error: None,
            ..failed.clone()
        };
        assert_eq!(
            news(&failed, &again, log).as_deref(),
            Some("The local store is saved again.")
        );
        assert_eq!(news(&again, &again, log), None);
    }

    #[test]
    fn a_second_gateway_on_one_folder_is_refused_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("lock-{}", uuid::Uuid::new_v4().simple()));
        let first = lock(&dir).unwrap();
        let refused = lock(&dir).err().expect("the folder is taken").to_string();
        assert!(refused.contains("already running"), "{refused}");
        assert!(
            refused.contains(&std::process::id().to_string()),
            "{refused}"
        );
        drop(first);
        lock(&dir).expect("free again once the first is gone");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn logs_sit_beside_the_state_folder() {
        assert_eq!(
            logs_dir(Path::new("/repo/.run/state")),
            Path::new("/repo/.run/logs")
        );
    }
}
