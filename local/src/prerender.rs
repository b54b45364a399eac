//! Prerendering the running shop's pages: frontend/scripts/prerender-pages.mjs renders every drink, category
//! and content page from the gateway's data into the build, which the gateway then serves for those paths
//! (site.rs, known_paths.rs). Started in the background once the gateway answers; its output goes to the
//! log, and a failure is a warning: the pages then get the app, as before.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};

/// The script the front end keeps (frontend/scripts/prerender-pages.mjs).
pub fn script() -> PathBuf {
    testkit::emulator::repo_root().join("frontend/scripts/prerender-pages.mjs")
}

/// Why the pages are not prerendered this time, for the log.
#[derive(Debug, PartialEq, Eq)]
pub enum Skipped {
    /// `LOCAL_PRERENDER=0` (scripts/with-gateway.sh runs the script itself).
    TurnedOff,
    /// The storefront is not built (no index.html).
    NotBuilt,
    /// The front end has no prerender script yet.
    NoScript,
}

/// Whether to prerender: when turned on (`LOCAL_PRERENDER` is not `0`), with a built storefront and the
/// script.
pub fn should_run(enabled: bool, dist: &Path, script: &Path) -> Result<(), Skipped> {
    if !enabled {
        Err(Skipped::TurnedOff)
    } else if !dist.join("index.html").is_file() {
        Err(Skipped::NotBuilt)
    } else if !script.is_file() {
        Err(Skipped::NoScript)
    } else {
        Ok(())
    }
}

/// Runs `node <script> --api <api> --dist <dist>` from the repository's root, each line it prints logged
/// as it comes. Answers the script's last line (`Prerendered N pages ...`), or why it failed: node missing,
/// or its exit status.
pub async fn run(script: &Path, api: &str, dist: &Path) -> Result<String, String> {
    let mut child = tokio::process::Command::new("node")
        .arg(script)
        .arg("--api")
        .arg(api)
        .arg("--dist")
        .arg(dist)
        .current_dir(testkit::emulator::repo_root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|error| format!("node could not be started ({error}): is it on PATH?"))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let errors = tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            tracing::warn!("prerender: {line}");
        }
    });
    let mut last = String::new();
    let mut lines = BufReader::new(stdout).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::info!("prerender: {line}");
        if !line.trim().is_empty() {
            last = line;
        }
    }
    let status = child.wait().await.map_err(|error| error.to_string())?;
    let _ = errors.await;
    if status.success() {
        Ok(last)
    } else {
        Err(format!("{} exited with {status}", script.display()))
    }
}

/// Prerenders in the background when `should_run` says so; never fails the gateway.
pub fn spawn(enabled: bool, api: String, dist: PathBuf) {
    let script = script();
    if let Err(skipped) = should_run(enabled, &dist, &script) {
        tracing::info!(?skipped, "pages not prerendered: deep links get the app");
        return;
    }
    tokio::spawn(async move {
        match run(&script, &api, &dist).await {
            // Its summary is the script's last line, already in the log.
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(%error, "pages not prerendered: deep links get the app")
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Folder(PathBuf);

    impl Folder {
        fn new() -> Self {
            let path = std::env::temp_dir().join(format!("prerender-{}", uuid::Uuid::new_v4()));
            std::fs::create_dir_all(&path).unwrap();
            Folder(path)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A stand-in for the front end's script: writes one page for the address it is given.
    const STAND_IN: &str = r#"
const args = process.argv.slice(2);
const api = args[args.indexOf('--api') + 1];
const dist = args[args.indexOf('--dist') + 1];
const fs = require('fs');
if (api.includes('fail')) { console.error('no shop at ' + api); process.exit(3); }
fs.mkdirSync(dist + '/drinks/p-1', { recursive: true });
fs.writeFileSync(dist + '/drinks/p-1/index.html', 'from ' + api);
console.log('rendering');
console.log('Prerendered 1 pages into ' + dist);
"#;

    #[test]
    fn it_runs_only_when_on_built_and_scripted() {
        let folder = Folder::new();
        let script = folder.0.join("script.cjs");
        assert_eq!(should_run(true, &folder.0, &script), Err(Skipped::NotBuilt));
        std::fs::write(folder.0.join("index.html"), "app").unwrap();
        assert_eq!(should_run(true, &folder.0, &script), Err(Skipped::NoScript));
        std::fs::write(&script, STAND_IN).unwrap();
        assert_eq!(should_run(true, &folder.0, &script), Ok(()));
        assert_eq!(should_run(true, &folder.0, &script), Ok(()));
        assert_eq!(
            should_run(false, &folder.0, &script),
            Err(Skipped::TurnedOff)
        );
    }

    #[tokio::test]
    async fn the_script_writes_into_the_build_and_its_failure_is_reported() {
        let folder = Folder::new();
        let script = folder.0.join("script.cjs");
        std::fs::write(&script, STAND_IN).unwrap();
        let dist = folder.0.join("dist");
        let summary = run(&script, "http://127.0.0.1:3999", &dist).await.unwrap();
        assert!(summary.starts_with("Prerendered 1 pages"), "{summary}");
        assert_eq!(
            std::fs::read_to_string(dist.join("drinks/p-1/index.html")).unwrap(),
            "from http://127.0.0.1:3999"
        );
        let failed = run(&script, "http://fail", &dist).await.unwrap_err();
        assert!(failed.contains("exited with"), "{failed}");
    }
}
