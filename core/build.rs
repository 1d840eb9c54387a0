//! Embeds the Fairy-Stockfish variants that ship as built-ins: every file in
//! configs/variants/fsf/ (written by `hoplite import --builtins`), so that adding one is adding
//! its file; and the networks shipped for built-ins, every data/networks/NAME.nnue.

use std::fmt::Write;

fn main() {
    let mut out = table(
        "/// Fairy-Stockfish's variants that the rule kit expresses, by FSF's names.\npub const FSF_BUILTIN: &[(&str, &str)]",
        "configs/variants/fsf",
        "toml",
        "include_str",
    );
    out += &table(
        "/// The networks shipped for built-in variants (data/networks/NAME.nnue), by name.\npub const SHIPPED_NETWORKS: &[(&str, &[u8])]",
        "data/networks",
        "nnue",
        "include_bytes",
    );
    let target = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("fsf_builtins.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

/// `head = &[(NAME, include(FILE)), …]` for every FILE of the repository's `dir` that ends in
/// `.ext`, by name; cargo runs this again when any of them, or the folder, changes.
fn table(head: &str, dir: &str, ext: &str, include: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    let mut out = format!("{head} = &[\n");
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
        let _ = writeln!(out, "    ({name:?}, {include}!({:?})),", path.display().to_string());
    }
    out + "];\n"
}
