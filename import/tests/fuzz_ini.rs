//! Property test with a fixed seed: Fairy-Stockfish's variants.ini with random line edits never
//! makes `hoplite import` panic; a bad line is an error naming file and line, every refusal
//! names file, line and key, and every converted file loads as a variant or is refused with
//! a clear error, and its start position plays.

use hoplite_core::{perft, Position, Variant};
use hoplite_import::import;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

const INI: &str = include_str!("../../data/fsf/variants.ini");
const NOISE: &[&str] = &["=", "-", "*", "0", "99", "true", "k", ":", "[", "]", "mQ", "pR", "a1 h8", "#"];
const KEYS: &[&str] =
    &["wallingRule", "flagRegion", "castlingRank", "promotionRegionWhite", "customPiece1", "checkCounting"];

/// One to three line edits: delete, duplicate, cut short, append noise, swap a key.
fn mutate(rng: &mut ChaCha8Rng, lines: &[&str]) -> String {
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for _ in 0..rng.gen_range(1..=3) {
        let i = rng.gen_range(0..out.len());
        match rng.gen_range(0..5) {
            0 => {
                out.remove(i);
            }
            1 => out.insert(i, out[i].clone()),
            2 => {
                let cut = rng.gen_range(0..=out[i].len());
                out[i] = out[i].chars().take(cut).collect();
            }
            3 => out[i].push_str(NOISE.choose(rng).unwrap()),
            _ => {
                if let Some((_, value)) = out[i].clone().split_once('=') {
                    out[i] = format!("{} ={value}", KEYS.choose(rng).unwrap());
                }
            }
        }
    }
    out.join("\n")
}

#[test]
fn mutated_variants_ini_never_panics() {
    let env = |name: &str, or: u64| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(or);
    // As core/tests/fuzz.rs: HOPLITE_FUZZ_SCALE times the files, HOPLITE_FUZZ_SEED another draw.
    let mut rng = ChaCha8Rng::seed_from_u64(0x1A1 ^ env("HOPLITE_FUZZ_SEED", 0));
    let lines: Vec<&str> = INI.lines().collect();
    let (mut inputs, mut errors, mut loaded) = (0, 0, 0);
    let mut failures = Vec::new();
    for _ in 0..120 * env("HOPLITE_FUZZ_SCALE", 1) {
        let text = mutate(&mut rng, &lines);
        inputs += 1;
        let outcome = match catch_unwind(|| import("variants.ini", &text)) {
            Ok(o) => o,
            Err(_) => {
                failures.push(format!("import panicked on:\n{text}"));
                continue;
            }
        };
        let imported = match outcome {
            Ok(i) => i,
            Err(e) => {
                errors += 1;
                assert!(e.to_string().starts_with("variants.ini:"), "{e}");
                continue;
            }
        };
        for s in &imported.sections {
            match &s.outcome {
                Err(refusals) => {
                    for r in refusals {
                        assert!(r.message.starts_with("variants.ini:") && !r.key.is_empty(), "{}", r.message);
                    }
                }
                // The sections a mutation can reach: load a sample of the converted ones.
                Ok(toml) if rng.gen_bool(0.05) => {
                    let played = catch_unwind(AssertUnwindSafe(|| match Variant::from_toml(&s.name, toml) {
                        Ok(v) => {
                            perft(&mut Position::startpos(&v), 2);
                            true
                        }
                        Err(e) => {
                            assert!(!e.to_string().is_empty());
                            false
                        }
                    }));
                    match played {
                        Ok(true) => loaded += 1,
                        Ok(false) => {}
                        Err(_) => failures.push(format!("[{}] panicked:\n{toml}", s.name)),
                    }
                }
                Ok(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n---\n"));
    eprintln!("{inputs} mutated files: {errors} syntax errors, {loaded} converted variants played");
    assert!(loaded > 20, "only {loaded} converted variants played");
}
