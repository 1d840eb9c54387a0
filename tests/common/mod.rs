//! What the command-line tests share: running the binary, and a fresh temporary path.
#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

pub fn hoplite(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoplite")).args(args).output().unwrap()
}

/// Runs hoplite: whether it succeeded, its stdout and its stderr.
pub fn outcome(args: &[&str]) -> (bool, String, String) {
    let o = hoplite(args);
    (o.status.success(), String::from_utf8_lossy(&o.stdout).into(), String::from_utf8_lossy(&o.stderr).into())
}

/// Runs hoplite and requires success.
pub fn ok(args: &[&str]) -> Output {
    let o = hoplite(args);
    assert!(o.status.success(), "hoplite {args:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// A path for this test, not yet there: in cargo's scratch folder under target/ (named by the
/// test file), so that runs leave nothing in the system's temporary folder and a test's
/// leftovers are replaced by its next run.
pub fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A fresh, empty folder for this test process.
pub fn tmp_dir(name: &str) -> PathBuf {
    let d = tmp(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Games in `dir`'s games.csv.
pub fn games_in(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("games.csv")).map_or(0, |s| s.lines().count().saturating_sub(1))
}

/// Starts hoplite with `args` and kills it (SIGKILL) once `now()` holds, as a kill at that
/// moment does; whether it was still running then.
pub fn kill_when(args: &[String], now: impl Fn() -> bool) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hoplite"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..20_000 {
        if now() || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

/// Starts hoplite with `args` and kills it once `dir`'s games.csv holds `games` games, as a kill
/// in the middle of a run does; returns the games it holds then.
pub fn kill_after_games(args: &[String], dir: &Path, games: usize) -> usize {
    kill_when(args, || games_in(dir) >= games);
    games_in(dir)
}
