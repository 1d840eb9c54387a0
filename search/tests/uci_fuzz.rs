//! The UCI front end under hostile input: sessions of valid commands mutated at random (numbers
//! made negative, huge or words, tokens dropped or repeated, bytes that are not UTF-8, unknown
//! options and files) must never panic, and must answer every `go` with one `bestmove` and every
//! `isready` with one `readyok`, as a GUI waits for them.

use hoplite_search::uci;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

/// Collects what the engine writes.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption name UCI_Variant value spartan",
    "setoption name UCI_Variant value sultan",
    "setoption name Hash value 2",
    "setoption name MultiPV value 3",
    "setoption name WeightsFile value /nonexistent/w.toml",
    "setoption name EvalFile value /nonexistent/n.nnue",
    "setoption name ParamsFile value <empty>",
    "setoption name lmp_base value 4",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
    "go depth 2",
    "go nodes 3000",
    "go movetime 5",
    "go wtime 50 btime 50 winc 0 binc 0",
    "go infinite",
    "stop",
];

/// A line of `LINES`, perhaps mutated.
fn line(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let base = LINES[rng.gen_range(0..LINES.len())];
    let mut words: Vec<String> = base.split(' ').map(String::from).collect();
    match rng.gen_range(0..10) {
        0 => {
            let i = rng.gen_range(0..words.len());
            words[i] = ["-1", "-99999", "99999999999999999999999", "x", "", "0", "1e9"][rng.gen_range(0..7)].into();
        }
        1 => {
            words.remove(rng.gen_range(0..words.len()));
        }
        2 => {
            let i = rng.gen_range(0..words.len());
            let w = words[i].clone();
            words.insert(i, w);
        }
        3 => {
            let mut b = base.as_bytes().to_vec();
            let i = rng.gen_range(0..b.len());
            b[i] = rng.gen_range(0x80..=0xff);
            b.push(b'\n');
            return b;
        }
        _ => {}
    }
    let mut b = words.join(" ").into_bytes();
    b.push(b'\n');
    b
}

#[test]
fn every_go_and_isready_is_answered_whatever_the_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(61 ^ fuzz_env("HOPLITE_FUZZ_SEED", 0));
    // As core/tests/fuzz.rs: HOPLITE_FUZZ_SCALE times the sessions for longer runs by hand.
    for session in 0..40 * fuzz_env("HOPLITE_FUZZ_SCALE", 1) {
        let mut input = Vec::new();
        for _ in 0..30 {
            input.extend(line(&mut rng));
        }
        // Only lines of text are commands; the others are answered with an error line alone.
        let text: Vec<&str> = input.split(|&b| b == b'\n').filter_map(|l| std::str::from_utf8(l).ok()).collect();
        let count = |cmd: &str| text.iter().filter(|l| l.split_whitespace().next() == Some(cmd)).count();
        let (gos, readies) = (count("go"), count("isready"));
        let sink = Sink::default();
        uci::run(Cursor::new(input.clone()), Box::new(sink.clone()));
        let out = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let bestmoves = out.lines().filter(|l| l.starts_with("bestmove ")).count();
        let readyoks = out.lines().filter(|l| *l == "readyok").count();
        assert_eq!(bestmoves, gos, "session {session}: {text:?}\n---\n{out}");
        assert_eq!(readyoks, readies, "session {session}: {text:?}\n---\n{out}");
    }
}

fn fuzz_env(name: &str, or: u64) -> u64 {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(or)
}
