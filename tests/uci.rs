//! Drives `hoplite uci` through stdin and stdout as a GUI would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Engine {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hoplite"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine { child, lines }
    }
    fn send(&mut self, s: &str) {
        writeln!(self.child.stdin.as_mut().unwrap(), "{s}").unwrap();
    }
    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{prefix}' after {got:?}"));
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }
}

#[test]
fn uci_session() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name hoplite")));
    let combo = hello.iter().find(|l| l.starts_with("option name UCI_Variant type combo")).unwrap();
    for v in ["chess", "shatranj", "sultan", "spartan", "rumi-shatranj", "great-shatranj", "great-shatranj-r"] {
        assert!(combo.contains(&format!("var {v}")), "{combo}");
    }
    e.send("isready");
    e.until("readyok");

    // Spartan: after 1. e4 Black (the Spartans) answers with a legal Spartan move.
    e.send("setoption name UCI_Variant value spartan");
    e.send("ucinewgame");
    e.send("position startpos moves e2e4");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let info: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(info.len(), 4, "{lines:?}");
    for part in ["score cp", "nodes", "nps", "pv"] {
        assert!(info[3].contains(part), "{}", info[3]);
    }
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let v = hoplite_core::Variant::builtin("spartan");
    let mut pos = hoplite_core::Position::startpos(&v);
    pos.make(pos.parse_uci("e2e4").unwrap());
    assert!(pos.parse_uci(&best).is_ok(), "bestmove {best} is not legal");

    // Sultan's Game from a FEN, with a mate in 1 for the Commander.
    e.send("setoption name UCI_Variant value sultan");
    e.send("position fen kr9/pp9/4C6/11/11/11/11/11/11/11/10K w - - 0 1");
    e.send("go nodes 5000");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove e9c10");
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");

    // go infinite runs until stop.
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(lines.last().unwrap().len() > "bestmove ".len());

    // Errors are reported, not fatal.
    e.send("position startpos moves e2e9");
    e.until("info string error");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn uci_finds_the_mate_on_the_hundredth_ply_and_quits_at_once() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove a1a8");
    assert!(lines.iter().any(|l| l.contains("score mate 1")), "{lines:?}");
    // The last info line's first move is the move played, whatever stopped the search (in
    // Spartan chess at 2,100 and 3,100 nodes the search stops mid-iteration on a new move).
    e.send("setoption name UCI_Variant value spartan");
    for nodes in [700, 2100, 3100, 6900] {
        e.send("position startpos");
        e.send(&format!("go nodes {nodes}"));
        let lines = e.until("bestmove");
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        let last_pv = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
        let first = last_pv.split(" pv ").nth(1).unwrap().split_whitespace().next();
        assert_eq!(first, Some(best.as_str()), "{nodes} nodes: {lines:?}");
    }
    // quit during an endless search ends the process at once.
    e.send("go infinite");
    e.send("quit");
    let started = std::time::Instant::now();
    assert!(e.child.wait().unwrap().success());
    assert!(started.elapsed() < Duration::from_secs(2), "quit took {:?}", started.elapsed());
}

#[test]
fn uci_options_hold_to_their_declared_ranges() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    let declared = |name: &str| hello.iter().find(|l| l.starts_with(&format!("option name {name} type spin"))).cloned();
    assert_eq!(declared("Hash").unwrap(), "option name Hash type spin default 16 min 1 max 4096");
    assert_eq!(declared("rfp_margin").unwrap(), "option name rfp_margin type spin default 80 min 10 max 300");
    // Out of range: an error, and the engine goes on with what it had (it used to abort on a
    // failed allocation of 40 GB).
    for (option, refusal) in [
        ("Hash value 40000", "Hash: 40000 is outside 1..=4096"),
        ("MultiPV value 0", "MultiPV: 0 is outside 1..=256"),
        ("rfp_margin value 5", "rfp_margin: 5 is outside 10..=300"),
        ("nmp_reduction value x", "nmp_reduction: 'x' is not a number"),
        ("ParamsFile value /nonexistent/p.toml", "cannot read parameters file '/nonexistent/p.toml'"),
    ] {
        e.send(&format!("setoption name {option}"));
        let lines = e.until("info string error");
        assert!(lines.last().unwrap().contains(refusal), "{option}: {lines:?}");
    }
    // In range, a parameter changes the search: a different tree at the same depth.
    let nodes = |e: &mut Engine| {
        e.send("position startpos moves e2e4 e7e5");
        e.send("go depth 7");
        let lines = e.until("bestmove");
        let info = lines.iter().rev().find(|l| l.starts_with("info depth 7")).unwrap().clone();
        info.split(" nodes ").nth(1).unwrap().split_whitespace().next().unwrap().parse::<u64>().unwrap()
    };
    e.send("ucinewgame");
    let default = nodes(&mut e);
    e.send("setoption name lmp_base value 10");
    e.send("ucinewgame");
    let fewer_prunings = nodes(&mut e);
    assert_ne!(default, fewer_prunings);
    e.send("setoption name lmp_base value 3");
    e.send("ucinewgame");
    assert_eq!(nodes(&mut e), default);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}
