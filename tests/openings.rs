//! Played openings through the binary: the default of selfplay, recorded in run.toml, the same
//! on any thread count, distinct; made by an outside engine as by hoplite itself; a resume
//! takes the recorded method and refuses another; a balance run with the chess control.

use hoplite_formats::{csvfile, GameRow, Manifest};
use std::path::{Path, PathBuf};

mod common;
use common::{hoplite, ok, tmp};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A short chess selfplay run with cheap played openings, into `out`.
fn selfplay(out: &Path, extra: &[&str]) {
    let mut args = vec!["selfplay", "--variant", "chess", "--games", "6", "--nodes", "200", "--max-plies", "6"];
    args.extend(["--opening-plies", "4", "--opening-nodes", "1500", "--seed", "5", "--out", s(out)]);
    args.extend(extra);
    ok(&args);
}

fn rows(dir: &Path) -> Vec<GameRow> {
    csvfile::read(&dir.join("games.csv")).unwrap()
}

/// An engines.toml naming hoplite itself over UCI (with the table size of hoplite's own
/// players), and Debian's engines.
fn engines_file(dir: &Path) -> PathBuf {
    let text = format!(
        "[hoplite-uci]\nprotocol = \"uci\"\ncommand = {:?}\nargs = [\"uci\"]\noptions = {{ Hash = \"1\" }}\n\n\
         [fairy-stockfish]\nprotocol = \"uci\"\ncommand = \"/usr/games/fairy-stockfish\"\n\n\
         [fairymax]\nprotocol = \"xboard\"\ncommand = \"/usr/games/fairymax\"\n",
        env!("CARGO_BIN_EXE_hoplite")
    );
    let path = dir.join("engines.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn played_openings_are_the_default_recorded_distinct_and_the_same_on_any_thread_count() {
    let (a, b) = (tmp("played-1"), tmp("played-2"));
    selfplay(&a, &["--threads", "1"]);
    selfplay(&b, &["--threads", "2"]);
    assert_eq!(std::fs::read(a.join("games.csv")).unwrap(), std::fs::read(b.join("games.csv")).unwrap());
    let m = Manifest::read(&a.join("run.toml")).unwrap();
    let p = m.played.expect("played openings recorded");
    assert_eq!((p.plies, p.margin, p.lines, m.random_plies), (4, 40, 8, 0));
    assert_eq!(p.player.budget.and_then(|b| b.nodes), Some(1500));
    let games = rows(&a);
    let ends: std::collections::BTreeSet<&str> = games.iter().map(|g| g.opening_fen.as_str()).collect();
    assert_eq!(ends.len(), 6, "distinct openings");
    // Four plies from the setup: White to move at move 3.
    assert!(games.iter().all(|g| g.opening_fen.contains(" w ") && g.opening_fen.ends_with(" 3")));
}

#[test]
fn an_outside_engine_makes_the_openings_hoplite_makes() {
    let dir = tmp("played-uci");
    std::fs::create_dir_all(&dir).unwrap();
    let engines = engines_file(&dir);
    let (own, outside) = (dir.join("own"), dir.join("outside"));
    selfplay(&own, &[]);
    selfplay(&outside, &["--opening-player", "hoplite-uci", "--engines", s(&engines)]);
    // Over UCI with MultiPV, hoplite ranks as it does in the process: the same openings.
    let fens = |d: &Path| rows(d).into_iter().map(|g| g.opening_fen).collect::<Vec<_>>();
    assert_eq!(fens(&own), fens(&outside));
    let m = Manifest::read(&outside.join("run.toml")).unwrap();
    assert_eq!(m.played.unwrap().player.engine_name.as_deref(), Some("hoplite-uci"));
}

/// Fairy-Stockfish ranks by MultiPV, Fairy-Max (xboard, no multi-PV) by its answer to each
/// move; both where installed (CI installs Debian's).
#[test]
fn fairy_stockfish_and_fairy_max_make_openings() {
    let required = std::env::var("HOPLITE_REQUIRE_ENGINES").is_ok();
    if !Path::new("/usr/games/fairy-stockfish").exists() || !Path::new("/usr/games/fairymax").exists() {
        assert!(!required, "HOPLITE_REQUIRE_ENGINES is set but the engines are not installed");
        return;
    }
    let dir = tmp("played-engines");
    std::fs::create_dir_all(&dir).unwrap();
    let engines = engines_file(&dir);
    for (player, budget) in [("fairy-stockfish", ["--opening-nodes", "3000"]), ("fairymax", ["--opening-depth", "2"])] {
        let out = dir.join(player);
        let mut args = vec!["selfplay", "--variant", "chess", "--games", "2", "--nodes", "200", "--max-plies", "2"];
        args.extend(["--opening-plies", "3", "--opening-player", player, "--engines", s(&engines), "--out", s(&out)]);
        args.extend(budget);
        ok(&args);
        let games = rows(&out);
        assert_eq!(games.len(), 2);
        assert_ne!(games[0].opening_fen, games[1].opening_fen, "{player}");
        assert!(games.iter().all(|g| g.opening_fen.contains(" b ") && g.opening_fen.ends_with(" 2")), "{player}");
    }
}

#[test]
fn a_resume_takes_the_recorded_opening_and_refuses_another() {
    let (whole, cut) = (tmp("played-whole"), tmp("played-cut"));
    selfplay(&whole, &[]);
    selfplay(&cut, &[]);
    // As if stopped after three games.
    let text = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(cut.join("games.csv"), kept.join("\n") + "\n").unwrap();
    let base = ["selfplay", "--variant", "chess", "--games", "6", "--nodes", "200", "--max-plies", "6"];
    let more = ["--seed", "5", "--out", s(&cut), "--resume"];
    let o = hoplite(&base.iter().chain(&more).chain(&["--random-plies", "4"]).copied().collect::<Vec<_>>());
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("[played]"), "{}", String::from_utf8_lossy(&o.stderr));
    ok(&base.iter().chain(&more).copied().collect::<Vec<_>>());
    assert_eq!(std::fs::read(whole.join("games.csv")).unwrap(), std::fs::read(cut.join("games.csv")).unwrap());
}

#[test]
fn a_balance_run_with_the_control() {
    let dir = tmp("control");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("b.toml");
    std::fs::write(&config, "variant = \"spartan\"\n[[configs]]\nname = \"final\"\n").unwrap();
    let out = dir.join("run");
    let o = ok(&[
        "balance",
        s(&config),
        "--control",
        "--games",
        "40",
        "--nodes",
        "100",
        "--max-plies",
        "4",
        "--opening-plies",
        "2",
        "--opening-nodes",
        "800",
        "--out",
        s(&out),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("chess (control)"), "{stdout}");
    let m = Manifest::read(&out.join("run.toml")).unwrap();
    assert_eq!(m.controls, ["chess (control)"]);
    assert!(m.config.unwrap().contains("control = true"));
    let games = rows(&out);
    assert_eq!(games.iter().filter(|g| g.variant == "chess").count(), 40);
    // Four plies cannot read the first-move advantage: forty draws put the control's interval
    // below 0.547, and it says so.
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning: the control reads"));
    ok(&["report", s(&out)]);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<h2>Control</h2>") && html.contains("final ⚠"), "the verdict is marked");
    // A control that is not chess unchanged is refused.
    std::fs::write(&config, "variant = \"spartan\"\n[[configs]]\nname = \"c\"\ncontrol = true\n").unwrap();
    let o = hoplite(&["balance", s(&config), "--out", s(&dir.join("no"))]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("the control plays chess unchanged"));
}
