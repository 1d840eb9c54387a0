//! Embeds the Fairy-Stockfish variants that ship as built-ins: every file in
//! configs/variants/fsf/ (written by `hoplite import --builtins`), so that adding one is adding
//! its file.

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
    let target = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("fsf_builtins.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
