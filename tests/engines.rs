//! Outside engines as players, through the binary: a scripted fake engine (tests/fake_engine.sh)
//! that crashes, plays an illegal move or none, falls silent or oversteps its clock loses each
//! game with that termination, over UCI and over xboard, and the run goes on; `hoplite uci` as an
//! outside engine plays the very games the in-process engine plays; and, where they are
//! installed (CI installs Debian's), Fairy-Max and Fairy-Stockfish play short matches without
//! an illegal move or a crash.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{hoplite, tmp_dir as tmp};

/// An engines.toml in `dir` naming the fake engine in each protocol and mode, and hoplite
/// itself over UCI.
fn engines_file(dir: &Path) -> PathBuf {
    let fake = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.sh");
    let mut text = String::new();
    for proto in ["uci", "xboard"] {
        for mode in ["crash", "illegal", "silent", "slow", "nomove", "good", "resign", "garbage", "deaf"] {
            text += &format!(
                "[{proto}-{mode}]\nprotocol = \"{proto}\"\ncommand = {:?}\nargs = [\"{proto}\", \"{mode}\"]\ntimeout = 1.0\nhandshake = 0.5\n\n",
                fake.display().to_string()
            );
        }
    }
    text += &format!(
        "[hoplite-uci]\nprotocol = \"uci\"\ncommand = {:?}\nargs = [\"uci\"]\noptions = {{ Hash = \"1\" }}\n",
        env!("CARGO_BIN_EXE_hoplite")
    );
    let path = dir.join("engines.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// (white, black, result, termination) of every game of a run.
fn games(dir: &Path) -> Vec<(String, String, String, String)> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[4].into(), f[5].into(), f[7].into(), f[8].into())
        })
        .collect()
}

fn run_match(dir: &Path, engines: &Path, a: &str, extra: &[&str]) -> Output {
    let out = dir.join(a);
    let mut args = vec!["match", "--variant", "chess", "--a", a, "--b", "hoplite", "--games", "2"];
    args.extend(["--random-plies", "0", "--threads", "1", "--nodes", "500"]);
    args.extend(["--engines", engines.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend(extra);
    hoplite(&args)
}

/// Every wait on an outside engine ends, at engines.toml's `handshake` limit: one that never
/// starts (nonsense for `uci` or `protover`) or never answers `isready` or `ping` as a game is
/// set up ends the run with an error naming what it did not answer.
#[test]
fn waits_on_an_engine_are_bounded() {
    let dir = tmp("bounded");
    let engines = engines_file(&dir);
    let cases = [
        ("uci-garbage", "'uci' with 'uciok'"),
        ("xboard-garbage", "'protover 2' with 'feature done=1'"),
        ("uci-deaf", "'isready' with 'readyok'"),
        ("xboard-deaf", "'ping 1' with 'pong 1'"),
    ];
    for (engine, what) in cases {
        let started = std::time::Instant::now();
        let o = run_match(&dir, &engines, engine, &["--a-depth", "3"]);
        assert!(!o.status.success() && started.elapsed().as_secs() < 20, "{engine}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        let said = format!("it did not answer {what} within 0.5 s (engines.toml: handshake)");
        assert!(stderr.contains(&said), "{engine}: {stderr}");
    }
}

#[test]
fn a_failing_engine_loses_each_game_and_the_run_goes_on() {
    let dir = tmp("failures");
    let engines = engines_file(&dir);
    for proto in ["uci", "xboard"] {
        // xboard has no node limit: the fakes get a depth there.
        let budget: &[&str] = if proto == "xboard" { &["--a-depth", "3"] } else { &[] };
        for (mode, termination, extra) in [
            ("crash", "crash", budget),
            ("illegal", "illegal_move", budget),
            ("silent", "timeout", budget),
            // No move by its own rules (`bestmove (none)`, an xboard result line) where
            // hoplite's rules go on: a move it fails to give.
            ("nomove", "illegal_move", budget),
            ("slow", "time_forfeit", &["--a-tc", "1+0"][..]),
        ] {
            let name = format!("{proto}-{mode}");
            let o = run_match(&dir, &engines, &name, extra);
            assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
            let stderr = String::from_utf8_lossy(&o.stderr);
            assert!(stderr.contains("2 games ended by a player's failure"), "{name}: {stderr}");
            let g = games(&dir.join(&name));
            // The fake is White in game 0 and Black in game 1; it loses both.
            assert_eq!(
                g,
                [
                    (name.clone(), "hoplite".into(), "0-1".into(), termination.into()),
                    ("hoplite".into(), name.clone(), "1-0".into(), termination.into())
                ],
                "{name}"
            );
            let summary = std::fs::read_to_string(dir.join(&name).join("summary.csv")).unwrap();
            assert!(summary.lines().next().unwrap().contains(",illegal_move,crash,timeout,time_forfeit,"));
        }
        // A good engine (it knows one move a side) plays it, in either colour.
        let name = format!("{proto}-good");
        let o = run_match(&dir, &engines, &name, &[budget, &["--max-plies", "2"]].concat());
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(games(&dir.join(&name)).iter().all(|g| g.3 == "max_plies"), "{name}");
    }
    // An xboard engine that resigns loses each game, as a result (adjudication), not a failure.
    let o = run_match(&dir, &engines, "xboard-resign", &["--a-depth", "3"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!String::from_utf8_lossy(&o.stderr).contains("player's failure"));
    let g = games(&dir.join("xboard-resign"));
    let want = [
        ("xboard-resign".to_string(), "hoplite".to_string(), "0-1".to_string(), "adjudication".to_string()),
        ("hoplite".into(), "xboard-resign".into(), "1-0".into(), "adjudication".into()),
    ];
    assert_eq!(g, want);
    // An xboard engine without setboard cannot start from a book position: the run stops at
    // once with the reason, no game lost to it.
    let book = dir.join("book.fen");
    std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n").unwrap();
    std::fs::remove_dir_all(dir.join("xboard-good")).unwrap();
    let o = run_match(&dir, &engines, "xboard-good", &["--a-depth", "3", "--book", book.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{stderr}");
    assert!(stderr.contains("player 'xboard-good'") && stderr.contains("setboard=0"), "{stderr}");
    assert!(games(&dir.join("xboard-good")).is_empty());
    // An engine that is not there is refused before the run starts.
    let o = run_match(&dir, &engines, "stockfish", &[]);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("no player 'stockfish'"));
}

/// hoplite's own UCI engine as an outside player plays the very games the in-process engine
/// plays under a node budget: the same moves, results and node counts.
#[test]
fn hoplite_over_uci_plays_the_in_process_games() {
    let dir = tmp("uci-equal");
    let engines = engines_file(&dir);
    let run = |a: &str, out: &str| {
        let o = hoplite(&[
            "match",
            "--variant",
            "spartan",
            "--a",
            a,
            "--a-name",
            "A",
            "--b",
            "hoplite",
            "--b-name",
            "B",
            "--games",
            "6",
            "--nodes",
            "800",
            "--seed",
            "11",
            "--threads",
            "2",
            "--max-plies",
            "120",
            "--engines",
            engines.to_str().unwrap(),
            "--out",
            dir.join(out).to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(dir.join(out).join("games.csv")).unwrap()
    };
    assert_eq!(run("hoplite-uci", "outside"), run("hoplite", "inside"));
}

/// Fairy-Max (xboard) and Fairy-Stockfish (UCI) where installed: a short match in each
/// variant they share with hoplite, none ending by an illegal move, a crash or a timeout.
#[test]
fn fairy_max_and_fairy_stockfish_play_clean_games() {
    let installed = |p: &str| Path::new("/usr/games").join(p).exists();
    let required = std::env::var_os("HOPLITE_REQUIRE_ENGINES").is_some();
    let dir = tmp("real");
    for (engine, variant) in [
        ("fairymax", "spartan"),
        ("fairymax", "shatranj"),
        ("fairymax", "great-shatranj"),
        ("fairy-stockfish", "chess"),
        ("fairy-stockfish", "shatranj"),
    ] {
        if !installed(engine) {
            assert!(!required, "{engine} is required but not installed");
            eprintln!("{engine} not installed: not checked");
            continue;
        }
        let out = dir.join(format!("{engine}-{variant}"));
        let o = hoplite(&[
            "match",
            "--variant",
            variant,
            "--b",
            engine,
            "--tc",
            "1+0.02",
            "--games",
            "2",
            "--threads",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{engine} {variant}: {}", String::from_utf8_lossy(&o.stderr));
        for g in games(&out) {
            assert!(!["illegal_move", "crash", "timeout"].contains(&g.3.as_str()), "{engine} {variant}: {g:?}");
        }
    }
}
