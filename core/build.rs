//! Embeds the Fairy-Stockfish variants that ship as built-ins: every file in
//! configs/variants/fsf/ (written by `hoplite import --builtins`), so that adding one is adding
//! its file; and the networks shipped for built-ins, every data/networks/NAME.nnue.

use std::fmt::Write;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/variants/fsf");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("configs/variants/fsf exists")
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("/// Fairy-Stockfish's variants that the rule kit expresses, by FSF's names.\n");
    out += "pub const FSF_BUILTIN: &[(&str, &str)] = &[\n";
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
        let _ = writeln!(out, "    ({name:?}, include_str!({:?})),", path.display().to_string());
    }
    out += "];\n";
    out += &networks();
    let target = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("fsf_builtins.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

/// `SHIPPED_NETWORKS`: each data/networks/NAME.nnue as (NAME, its bytes).
fn networks() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/networks");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("data/networks exists")
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "nnue"))
        .collect();
    files.sort();
    let mut out = String::from("/// The networks shipped for built-in variants (data/networks/NAME.nnue), by name.\n");
    out += "pub const SHIPPED_NETWORKS: &[(&str, &[u8])] = &[\n";
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
        let _ = writeln!(out, "    ({name:?}, include_bytes!({:?})),", path.display().to_string());
    }
    out + "];\n"
}
