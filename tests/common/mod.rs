//! What the command-line tests share: running the binary, and a fresh temporary path.
#![allow(dead_code)] // each test file uses its own part

use std::path::PathBuf;
use std::process::{Command, Output};

pub fn hoplite(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoplite")).args(args).output().unwrap()
}

/// Runs hoplite and requires success.
pub fn ok(args: &[&str]) -> Output {
    let o = hoplite(args);
    assert!(o.status.success(), "hoplite {args:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// A path in the temporary folder for this test process, not yet there.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hoplite-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A fresh, empty folder for this test process.
pub fn tmp_dir(name: &str) -> PathBuf {
    let d = tmp(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}
