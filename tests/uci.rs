//! Drives `hoplite uci` through stdin and stdout as a GUI would.

mod common;

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

impl Engine {
    fn send_bytes(&mut self, b: &[u8]) {
        self.child.stdin.as_mut().unwrap().write_all(b).unwrap();
    }
}

/// Every `go` ends in a `bestmove` and every `isready` in `readyok`, whatever came before: a
/// weights file that cannot be read leaves the engine as it was, an argument out of range is
/// an error line and `bestmove 0000` (never an endless search), a line that is not UTF-8 is
/// an error line, not the session's end.
#[test]
fn uci_always_answers() {
    let mut e = Engine::start();
    e.send("setoption name WeightsFile value /nonexistent/w.toml");
    e.send("go depth 1");
    let got = e.until("bestmove");
    assert!(got.iter().any(|l| l.starts_with("info string error: cannot read weights file")), "{got:?}");
    assert_ne!(got.last().unwrap(), "bestmove 0000", "{got:?}");
    for bad in ["nodes -5", "depth -1", "movetime -1", "wtime -1000", "depth x", "nodes"] {
        e.send(&format!("go {bad}"));
        let got = e.until("bestmove");
        let key = bad.split(' ').next().unwrap();
        assert!(got[0].starts_with(&format!("info string error: go: {key}:")), "{bad}: {got:?}");
        assert_eq!(got.last().unwrap(), "bestmove 0000", "{bad}: {got:?}");
    }
    e.send_bytes(b"setoption name WeightsFile value /tmp/caf\xe9.toml\n");
    e.send("isready");
    let got = e.until("readyok");
    assert_eq!(got, ["info string error: a line that is not UTF-8 text, ignored", "readyok"]);
    e.send("go depth 2");
    assert_ne!(e.until("bestmove").last().unwrap(), "bestmove 0000");
}

/// `EvalFile` plays with a network; one made for another variant is refused and the engine
/// keeps its evaluation.
#[test]
fn uci_plays_with_a_network_file() {
    use hoplite_core::Variant;
    use hoplite_search::eval::network::{FloatNetwork, Layout, Network};
    let dir = common::tmp_dir("network");
    let save = |name: &str, variant: &str| {
        let layout = Layout::of(&Variant::builtin(variant));
        let h = 8;
        let f = FloatNetwork {
            hidden: h,
            ft_weights: (0..layout.inputs() * h).map(|i| ((i % 7) as f32 - 3.0) / 20.0).collect(),
            ft_bias: vec![0.25; h],
            out_weights: (0..2 * h).map(|i| if i < h { 0.5 } else { -0.5 }).collect(),
            out_bias: 0.0,
        };
        let path = dir.join(name);
        Network::quantise(layout, &f).save(&path).unwrap();
        path.display().to_string()
    };
    let (chess, shatranj) = (save("chess.nnue", "chess"), save("shatranj.nnue", "shatranj"));
    let mut e = Engine::start();
    e.send(&format!("setoption name EvalFile value {chess}"));
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let got = e.until("bestmove");
    assert!(!got.iter().any(|l| l.contains("error")), "{got:?}");
    assert_ne!(got.last().unwrap(), "bestmove 0000");
    e.send(&format!("setoption name EvalFile value {shatranj}"));
    e.send("go depth 2");
    let got = e.until("bestmove");
    assert!(got[0].starts_with("info string error:") && got[0].contains("a network for another variant"), "{got:?}");
    assert_ne!(got.last().unwrap(), "bestmove 0000");
}

/// Chess plays its shipped network unless `UseNetwork` is false: the two evaluations score
/// the start position apart, and the option takes only true or false.
#[test]
fn uci_use_network_chooses_the_shipped_network_or_the_weights() {
    let score = |use_network: Option<&str>| {
        let mut e = Engine::start();
        e.send("uci");
        let hello = e.until("uciok");
        assert!(hello.iter().any(|l| l == "option name UseNetwork type check default true"), "{hello:?}");
        if let Some(v) = use_network {
            e.send(&format!("setoption name UseNetwork value {v}"));
        }
        e.send("position startpos moves e2e4");
        e.send("go depth 1");
        let got = e.until("bestmove");
        let info = got.iter().find(|l| l.contains(" score cp ")).unwrap_or_else(|| panic!("{got:?}"));
        info.split(" score cp ").nth(1).unwrap().split(' ').next().unwrap().parse::<i32>().unwrap()
    };
    assert_eq!(score(None), score(Some("true")));
    assert_ne!(score(None), score(Some("false")), "the network and the weights");
    let mut e = Engine::start();
    e.send("setoption name UseNetwork value maybe");
    e.send("isready");
    let got = e.until("readyok");
    assert!(got[0].starts_with("info string error:") && got[0].contains("true or false"), "{got:?}");
}
