//! Labels: `hoplite label` rewrites a positions.csv with a player's verdicts as White's expected
//! scores, the same whatever the thread count, and `hoplite tune` fits to them; a bad row is
//! named by file and line.

use hoplite_formats::{csvfile, PositionRow};

mod common;
use common::{hoplite, ok, tmp_dir};

#[test]
fn positions_are_labelled_by_a_players_scores_and_tuned_on() {
    let d = tmp_dir("label");
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let run = d.join("run");
    ok(&["selfplay", "--variant", "chess", "--games", "4", "--nodes", "100", "--max-plies", "60", "--out", &s(&run)]);
    let positions = run.join("positions.csv");
    let label = |threads: &str, out: &std::path::Path| {
        let args = ["label", "--variant", "chess", "--positions", &s(&positions), "--player", "hoplite"];
        ok(&args.into_iter().chain(["--nodes", "200", "--threads", threads, "--out", &s(out)]).collect::<Vec<_>>())
    };
    let (two, one) = (d.join("two.csv"), d.join("one.csv"));
    label("2", &two);
    label("1", &one);
    assert_eq!(std::fs::read(&two).unwrap(), std::fs::read(&one).unwrap(), "labels depend on the thread count");
    let before: Vec<PositionRow> = csvfile::read(&positions).unwrap();
    let after: Vec<PositionRow> = csvfile::read(&two).unwrap();
    assert_eq!(before.len(), after.len());
    assert!(before.iter().zip(&after).all(|(a, b)| (a.game_id, a.ply, &a.fen) == (b.game_id, b.ply, &b.fen)));
    // Expected scores, not results: most positions are neither won nor lost for sure.
    let between = after.iter().filter(|r| r.result.get() > 0.01 && r.result.get() < 0.99).count();
    assert!(between * 2 > after.len(), "{between} of {}", after.len());
    ok(&["tune", "--variant", "chess", "--positions", &s(&two), "--out", &s(&d.join("w.toml"))]);

    // A position that does not parse is named by file and line.
    let bad = d.join("bad.csv");
    std::fs::write(&bad, "game_id,ply,fen,result\n1,8,8/8/8/8/8/8/8/8 w - - 0 1,1\n").unwrap();
    let o = hoplite(&[
        "label",
        "--variant",
        "chess",
        "--positions",
        &s(&bad),
        "--player",
        "hoplite",
        "--out",
        &s(&d.join("x.csv")),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("bad.csv:2: fen"), "{err}");

    // A player with no move in a position (by its own rules the game is over there, as
    // Fairy-Stockfish's Great Shatranj holds a bared king) leaves the row's result as it was.
    let fake = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.sh");
    let engines = d.join("engines.toml");
    let entry =
        |mode: &str| format!("[{mode}]\nprotocol = \"uci\"\ncommand = {:?}\nargs = [\"uci\", \"{mode}\"]\n", s(&fake));
    std::fs::write(&engines, entry("nomove") + &entry("foreign")).unwrap();
    let kept = d.join("kept.csv");
    let args = ["label", "--variant", "chess", "--positions", &s(&positions), "--player", "nomove"];
    let o = ok(&args.into_iter().chain(["--engines", &s(&engines), "--out", &s(&kept)]).collect::<Vec<_>>());
    let o = String::from_utf8_lossy(&o.stdout);
    assert!(o.contains(&format!("{} of them keep their game's result", before.len())), "{o}");
    assert_eq!(csvfile::read::<PositionRow>(&kept).unwrap(), before);

    // A label asks for a score, not a move: one the engine's rules allow and hoplite's do not
    // (Fairy-Stockfish's Great Shatranj promotes to an Elephant on either colour) still labels.
    // The same through xboard, whose engines report scores in their thinking output.
    let xboard =
        format!("[xforeign]\nprotocol = \"xboard\"\ncommand = {:?}\nargs = [\"xboard\", \"foreign\"]\n", s(&fake));
    std::fs::write(&engines, entry("foreign") + &xboard).unwrap();
    let p = 1.0 / (1.0 + 10f64.powf(-50.0 / 400.0));
    for (player, budget) in [("foreign", "--nodes"), ("xforeign", "--depth")] {
        let foreign = d.join(format!("{player}.csv"));
        let args = ["label", "--variant", "chess", "--positions", &s(&positions), "--player", player, budget, "1"];
        ok(&args.into_iter().chain(["--engines", &s(&engines), "--out", &s(&foreign)]).collect::<Vec<_>>());
        for (row, old) in csvfile::read::<PositionRow>(&foreign).unwrap().iter().zip(&before) {
            let white = if old.fen.contains(" w ") { p } else { 1.0 - p };
            assert!((row.result.get() - white).abs() < 1e-3, "{player}: {} {}", row.fen, row.result.get());
        }
    }
}
