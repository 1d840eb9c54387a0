//! The self-play contract, through the binary: reproducible whatever the thread count,
//! shards merge into the unsharded run, a killed run resumes to the same files, PGN replays,
//! bad input gets a clear error.

use hoplite_core::{Position, Variant};
use std::path::{Path, PathBuf};

mod common;
use common::{hoplite, kill_after_games, ok, tmp, tmp_dir};

const FILES: [&str; 4] = ["games.csv", "positions.csv", "summary.csv", "games.pgn"];

fn assert_same_files(a: &Path, b: &Path) {
    for f in FILES {
        let (x, y) = (std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap());
        assert!(x == y, "{f} differs between {} and {}", a.display(), b.display());
    }
}

/// The arguments of the small runs these tests make: 10 games at 300 nodes, seed 7, PGN.
fn run_args(variant: &str, out: &Path, extra: &[&str]) -> Vec<String> {
    let base = ["selfplay", "--variant", variant, "--games", "10", "--nodes", "300", "--random-plies", "4"];
    let more = ["--max-plies", "80", "--seed", "7", "--pgn", "--out", out.to_str().unwrap()];
    base.iter().chain(&more).chain(extra).map(|s| s.to_string()).collect()
}

fn run(variant: &str, out: &Path, extra: &[&str]) {
    let args = run_args(variant, out, extra);
    ok(&args.iter().map(|s| s.as_str()).collect::<Vec<_>>());
}

#[test]
fn same_seed_same_bytes_for_one_and_two_threads() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    run("spartan", &a, &["--threads", "1"]);
    run("spartan", &b, &["--threads", "2"]);
    assert_same_files(&a, &b);
    let games = std::fs::read_to_string(a.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 11);
    assert!(games.starts_with(
        "game_id,variant,config,seed,white,black,opening_fen,result,termination,plies,final_fen,nodes,duration_ms,branching,evals\n"
    ));
    let summary = std::fs::read_to_string(a.join("summary.csv")).unwrap();
    assert!(summary
        .starts_with("config,games,white_wins,draws,black_wins,white_score,ci95_low,ci95_high,mean_plies,checkmate,"));
    assert!(summary.lines().nth(1).unwrap().starts_with("default,10,"));
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let whole = tmp("whole");
    run("chess", &whole, &[]);
    let shards: Vec<PathBuf> = (0..3).map(|k| tmp(&format!("shard{k}"))).collect();
    for (k, d) in shards.iter().enumerate() {
        run("chess", d, &["--shard", &format!("{k}/3")]);
    }
    let merged = tmp("merged");
    let mut args = vec!["merge"];
    let names: Vec<String> = shards.iter().map(|d| d.display().to_string()).collect();
    args.extend(names.iter().map(|s| s.as_str()));
    let m = merged.display().to_string();
    args.extend(["--out", &m]);
    ok(&args);
    assert_same_files(&whole, &merged);
    // Two of three shards are not the run.
    let partial = tmp("partial").display().to_string();
    let o = hoplite(&["merge", &names[0], &names[1], "--out", &partial]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard 2/3"));
    assert_eq!(std::fs::read(whole.join("run.toml")).unwrap(), std::fs::read(merged.join("run.toml")).unwrap());
    // A merge writes over nothing: not the run already merged, not another run.
    let games = std::fs::read(merged.join("games.csv")).unwrap();
    let mut again = args.clone();
    again.truncate(args.len() - 2);
    again.extend(["--out", &m]);
    let o = hoplite(&again);
    assert!(!o.status.success() && String::from_utf8_lossy(&o.stderr).contains("not empty"));
    assert_eq!(std::fs::read(merged.join("games.csv")).unwrap(), games);
    // A shard that lost its positions.csv is incomplete, not merged into half the positions.
    std::fs::remove_file(shards[1].join("positions.csv")).unwrap();
    let short = tmp("short").display().to_string();
    let o = hoplite(&["merge", &names[0], &names[1], &names[2], "--out", &short]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && stderr.contains("no positions.csv, which the other shards have"), "{stderr}");
    assert!(!Path::new(&short).exists());
    // A shard killed between a game's positions and its row, and not resumed, is incomplete;
    // a row of another shard's game is not of this one.
    std::fs::remove_dir_all(&shards[1]).unwrap();
    run("chess", &shards[1], &["--shard", "1/3"]);
    let games = std::fs::read_to_string(shards[0].join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let killed = lines[..lines.len() - 1].join("\n") + "\n";
    let moved = games.replacen("\n3,chess,", "\n4,chess,", 1);
    for (file, said) in
        [(killed, "records of game 9, which its games.csv does not hold"), (moved, "game 4 is not of shard 0/3")]
    {
        std::fs::write(shards[0].join("games.csv"), file).unwrap();
        let bad = tmp("bad-shard").display().to_string();
        let o = hoplite(&["merge", &names[0], &names[1], &names[2], "--out", &bad]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && stderr.contains(said), "{said}: {stderr}");
        assert!(!Path::new(&bad).exists());
    }
}

#[test]
fn a_killed_run_resumes_to_the_same_files() {
    let whole = tmp("uninterrupted");
    run("sultan", &whole, &["--threads", "2"]);
    let cut = tmp("killed");
    let out = cut.display().to_string();
    let done = kill_after_games(&run_args("sultan", &cut, &["--threads", "2"]), &cut, 3);
    assert!(done < 10, "the run finished before it could be killed");
    // A torn line, as a kill in the middle of a write leaves it.
    let mut games = std::fs::read_to_string(cut.join("games.csv")).unwrap();
    games.push_str("9,sultan,default,12");
    std::fs::write(cut.join("games.csv"), games).unwrap();
    // Without --resume the directory is protected; with other arguments the resume is refused.
    let o = hoplite(&["selfplay", "--variant", "sultan", "--games", "10", "--out", &out]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    let mut changed = run_args("sultan", &cut, &["--resume"]);
    changed[4] = "12".into();
    let o = hoplite(&changed.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("games = 12"), "{}", String::from_utf8_lossy(&o.stderr));
    run("sultan", &cut, &["--threads", "2", "--resume"]);
    assert_same_files(&whole, &cut);
}

#[test]
fn every_pgn_game_replays_through_the_san_parser() {
    for variant in ["spartan", "great-shatranj", "rumi-shatranj"] {
        let d = tmp(&format!("pgn-{variant}"));
        run(variant, &d, &[]);
        let v = Variant::builtin(variant);
        let pgn = std::fs::read_to_string(d.join("games.pgn")).unwrap();
        let finals: Vec<String> = std::fs::read_to_string(d.join("games.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(10).unwrap().to_string())
            .collect();
        let games: Vec<&str> = pgn.split("[Event ").filter(|g| !g.trim().is_empty()).collect();
        assert_eq!(games.len(), 10);
        for (g, fin) in games.iter().zip(&finals) {
            let mut pos = match g.lines().find_map(|l| l.strip_prefix("[FEN \"").and_then(|r| r.strip_suffix("\"]"))) {
                Some(fen) => Position::from_fen(&v, fen).unwrap(),
                None => Position::startpos(&v),
            };
            let movetext: String = g.lines().skip(1).filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join(" ");
            for tok in movetext.split_whitespace() {
                if tok.ends_with('.') || ["1-0", "0-1", "1/2-1/2"].contains(&tok) {
                    continue;
                }
                let m = pos.parse_san(tok).unwrap_or_else(|e| panic!("{variant}: {e}"));
                pos.make(m);
            }
            assert_eq!(&pos.to_fen(), fin, "{variant}");
        }
    }
}

#[test]
fn bad_input_gets_a_clear_error() {
    let err = |args: &[&str]| {
        let o = hoplite(args);
        assert!(!o.status.success(), "{args:?} should fail");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    assert!(err(&["selfplay", "--variant", "nosuch", "--out", "/tmp/x"]).contains("unknown variant 'nosuch'"));
    let dir = tmp_dir("bad");
    let book = dir.join("book.epd");
    std::fs::write(&book, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKXNR w KQkq -\n").unwrap();
    let e = err(&[
        "selfplay",
        "--variant",
        "chess",
        "--book",
        book.to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
    ]);
    assert!(e.contains("book.epd:2") && e.contains("'X'"), "{e}");
    let file = dir.join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let e = err(&["selfplay", "--games", "1", "--out", file.join("sub").to_str().unwrap()]);
    assert!(e.contains("cannot create output directory"), "{e}");
    // A corrupt row in the middle of games.csv stops a resume and is left as it was.
    let d = tmp("corrupt");
    run("chess", &d, &[]);
    let games = std::fs::read_to_string(d.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = games.lines().collect();
    lines[3] = "2,chess,default,notanumber,hoplite,hoplite,x,1-0,checkmate,10,x,5,";
    let corrupt = lines.join("\n") + "\n";
    std::fs::write(d.join("games.csv"), &corrupt).unwrap();
    let e = err(&run_args("chess", &d, &["--resume"]).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    assert!(e.contains("games.csv:4"), "{e}");
    assert_eq!(std::fs::read_to_string(d.join("games.csv")).unwrap(), corrupt);
}

#[test]
fn a_book_supplies_the_start_positions() {
    let d = tmp_dir("book");
    let book = d.join("book.epd");
    let fens = ["4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - -", "4k3/pppp4/8/8/8/8/PPPP4/4K2R b - -"];
    std::fs::write(&book, format!("# two endgames\n{}\n{} bm Kd7;\n", fens[0], fens[1])).unwrap();
    let out = d.join("run");
    ok(&run_args("chess", &out, &["--book", book.to_str().unwrap()]).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    // Each game starts from a book position (then 4 random plies): the PGN's FEN tag says which.
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    let starts: Vec<&str> = pgn.lines().filter_map(|l| l.strip_prefix("[FEN \"")).collect();
    assert_eq!(starts.len(), 10);
    for f in &fens {
        assert!(starts.iter().any(|s| s.starts_with(f)), "{f} never used");
    }
    assert!(starts.iter().all(|s| fens.iter().any(|f| s.starts_with(f))));
}

#[test]
fn an_sprt_stops_a_match_once_it_decides() {
    let d = tmp("sprt").display().to_string();
    let o = hoplite(&[
        "match",
        "--variant",
        "chess",
        "--games",
        "200",
        "--a-nodes",
        "2000",
        "--b-random",
        "--sprt",
        "0,200,0.1,0.1",
        "--max-plies",
        "120",
        "--out",
        &d,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let games = std::fs::read_to_string(Path::new(&d).join("games.csv")).unwrap().lines().count() - 1;
    assert!(games < 200 && games.is_multiple_of(2), "{games} games: the test should stop early, after whole pairs");
    // One LLR per pair until the decision, the last past the upper bound; the pairs under way
    // then are counted in the games but do not reopen the test.
    use hoplite_formats::{csvfile, MatchRow, SprtRow, SprtVerdict};
    let rows: Vec<SprtRow> = csvfile::read(&Path::new(&d).join("sprt.csv")).unwrap();
    assert!(!rows.is_empty() && rows.len() <= games / 2, "{} rows, {games} games", rows.len());
    assert!(rows.iter().enumerate().all(|(k, r)| r.pairs == k as u64 + 1), "{rows:?}");
    let (last, before) = rows.split_last().unwrap();
    assert!(last.llr.0 >= last.upper.0 && before.iter().all(|r| r.llr.0 < r.upper.0), "{rows:?}");
    let summary: Vec<MatchRow> = csvfile::read(&Path::new(&d).join("match.csv")).unwrap();
    assert_eq!(summary[0].sprt, Some(SprtVerdict::H1));
}

/// A run directory written by hoplite 0.1 (checked in) resumes under today's binary with the
/// same arguments, and merges: its run.toml is read and upgraded, its CSV files get today's
/// columns with the old rows unchanged.
#[test]
fn a_run_of_hoplite_0_1_resumes_and_merges() {
    use hoplite_formats::{csvfile, GameRow, SummaryRow};
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runs-0.1/selfplay");
    let copy = |name: &str| {
        let d = tmp_dir(name);
        for f in ["games.csv", "positions.csv", "summary.csv", "games.pgn", "run.toml"] {
            std::fs::copy(fixture.join(f), d.join(f)).unwrap();
        }
        d
    };
    let games = |dir: &Path| -> Vec<GameRow> { csvfile::read(&dir.join("games.csv")).unwrap() };
    let summary = |dir: &Path| -> Vec<SummaryRow> { csvfile::read(&dir.join("summary.csv")).unwrap() };
    let args = |d: &Path| {
        let args = ["selfplay", "--variant", "chess", "--games", "4", "--nodes", "200", "--max-plies", "40"];
        let more = ["--seed", "3", "--pgn", "--threads", "1", "--resume", "--out"];
        args.iter().chain(&more).map(|s| s.to_string()).chain([d.display().to_string()]).collect::<Vec<_>>()
    };
    // Its games were played with the linear evaluation: chess's shipped network may not go on.
    let resume = |d: &Path| ok(&args(d).iter().map(String::as_str).chain(["--eval", "linear"]).collect::<Vec<_>>());
    let d = copy("old-run");
    let (done, _, stderr) = common::outcome(&args(&d).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!done && stderr.contains("began with no network"), "{stderr}");
    resume(&d);
    assert_eq!(games(&fixture), games(&d));
    let header = csvfile::header::<GameRow>().join(",") + "\n";
    assert!(std::fs::read_to_string(d.join("games.csv")).unwrap().starts_with(&header));
    for f in ["positions.csv", "games.pgn"] {
        assert_eq!(std::fs::read(fixture.join(f)).unwrap(), std::fs::read(d.join(f)).unwrap(), "{f}");
    }
    // The summary gained columns: the players' failures (zeros), what the row is of, and the
    // game-quality measures; the old columns keep their figures.
    let (old, new) = (summary(&fixture), summary(&d));
    let n = &new[0];
    let kept = SummaryRow {
        base: n.base.clone(),
        player: n.player.clone(),
        budget: n.budget.clone(),
        length_sd: n.length_sd,
        balance: n.balance,
        drawishness: n.drawishness,
        completion: n.completion,
        ..old[0].clone()
    };
    assert_eq!(new, [kept]);
    assert_eq!((n.base.as_str(), n.player.as_str(), n.budget.as_str()), ("default", "hoplite", "nodes 200"));
    // 0 wins, 3 draws, 1 loss: White scores 0.375, so balance is 1 - 2 * 0.125.
    assert_eq!((n.balance.0, n.drawishness.0, n.completion.0), (0.75, 0.75, 0.25));
    assert_eq!(n.lead_changes, None, "no evaluations were kept");
    let o = hoplite(&[
        "selfplay",
        "--variant",
        "chess",
        "--games",
        "5",
        "--nodes",
        "200",
        "--out",
        &d.display().to_string(),
        "--resume",
    ]);
    assert!(!o.status.success(), "other arguments are refused");
    let merged = tmp("old-merged");
    ok(&["merge", fixture.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(std::fs::read(d.join("games.csv")).unwrap(), std::fs::read(merged.join("games.csv")).unwrap());

    // A run stopped in its last game: the old rows stay, the game is played again and
    // appended in today's columns, its positions once.
    let d = copy("old-run-torn");
    let text = std::fs::read_to_string(d.join("games.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(d.join("games.csv"), lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    resume(&d);
    let (before, after) = (games(&fixture), games(&d));
    assert_eq!((after.len(), after[3].game_id), (4, 3));
    assert_eq!(before[..3], after[..3]);
    assert!(after[3].branching.is_some() && before[3].branching.is_none());
    let positions = std::fs::read_to_string(d.join("positions.csv")).unwrap();
    let mut ids: Vec<&str> = positions.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    ids.dedup();
    assert_eq!(ids, ["0", "1", "2", "3"]);
}

/// The hundredth quiet ply mates: a game from that position ends in checkmate, not a draw.
#[test]
fn a_game_reaching_a_mate_on_the_hundredth_ply_is_a_mate() {
    let d = tmp_dir("mate-100");
    let book = d.join("book.fen");
    std::fs::write(&book, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80\n").unwrap();
    let out = d.join("run");
    ok(&[
        "selfplay",
        "--variant",
        "chess",
        "--games",
        "1",
        "--random-plies",
        "0",
        "--book",
        book.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let row = games.lines().nth(1).unwrap();
    assert!(row.contains(",1-0,checkmate,1,R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80,"), "{row}");
}

/// A strength ladder: a summary row per configuration and budget, configurations in file
/// order and budgets in the given order; every rung plays the same openings; shards of a
/// ladder merge into the whole run.
#[test]
fn a_ladder_has_a_row_per_configuration_and_budget() {
    use hoplite_formats::{csvfile, GameRow, SummaryRow};
    let d = tmp_dir("ladder");
    let file = d.join("b.toml");
    std::fs::write(&file, "variant = \"chess\"\n[[configs]]\nname = \"orthodox\"\n[[configs]]\nname = \"stalemate wins\"\nrules = { stalemate = \"win\" }\n").unwrap();
    let run = |out: &Path, extra: &[&str]| {
        let o = out.display().to_string();
        let args = ["balance", file.to_str().unwrap(), "--nodes", "200,100", "--games", "4", "--max-plies", "30"];
        ok(&args.iter().chain(&["--seed", "5", "--out", &o]).chain(extra).copied().collect::<Vec<_>>());
    };
    let whole = d.join("whole");
    run(&whole, &[]);
    let rows: Vec<SummaryRow> = csvfile::read(&whole.join("summary.csv")).unwrap();
    let what: Vec<(&str, &str, &str)> =
        rows.iter().map(|r| (r.config.as_str(), r.base.as_str(), r.budget.as_str())).collect();
    assert_eq!(
        what,
        [
            ("orthodox @ nodes 200", "orthodox", "nodes 200"),
            ("orthodox @ nodes 100", "orthodox", "nodes 100"),
            ("stalemate wins @ nodes 200", "stalemate wins", "nodes 200"),
            ("stalemate wins @ nodes 100", "stalemate wins", "nodes 100"),
        ]
    );
    assert!(rows.iter().all(|r| r.games == 4 && r.player == "hoplite"));
    let games: Vec<GameRow> = csvfile::read(&whole.join("games.csv")).unwrap();
    assert_eq!(games.len(), 16);
    for g in &games {
        // Each rung's game i starts where the first rung's game i did.
        let same = games.iter().find(|h| h.config == rows[(g.game_id / 4) as usize].config).unwrap();
        let first = &games[(g.game_id / 8 * 8 + g.game_id % 4) as usize];
        assert_eq!(g.opening_fen, first.opening_fen, "game {}", g.game_id);
        assert_eq!(g.config, same.config);
    }
    // Sharded across the ladder, then merged: the same files.
    let shards: Vec<String> = (0..3)
        .map(|k| {
            let s = d.join(format!("shard{k}"));
            run(&s, &["--shard", &format!("{k}/3")]);
            s.display().to_string()
        })
        .collect();
    let merged = d.join("merged").display().to_string();
    ok(&["merge", &shards[0], &shards[1], &shards[2], "--out", &merged]);
    for f in ["games.csv", "summary.csv"] {
        assert_eq!(std::fs::read(whole.join(f)).unwrap(), std::fs::read(Path::new(&merged).join(f)).unwrap(), "{f}");
    }
}

/// Several players in one balance run: a row per configuration and player, in that order,
/// each player against itself from the same openings; `--evals` keeps a score per ply and
/// fills the lead-change and decisiveness columns.
#[test]
fn a_balance_run_with_two_players_and_evaluations() {
    use hoplite_formats::{csvfile, GameRow, SummaryRow};
    let d = tmp_dir("players");
    let file = d.join("b.toml");
    std::fs::write(&file, "variant = \"chess\"\n[[configs]]\nname = \"orthodox\"\n").unwrap();
    let out = d.join("run").display().to_string();
    let args = ["balance", file.to_str().unwrap(), "--player", "hoplite,random", "--nodes", "100"];
    ok(&args
        .iter()
        .chain(&["--games", "4", "--max-plies", "40", "--evals", "--out", &out])
        .copied()
        .collect::<Vec<_>>());
    let rows: Vec<SummaryRow> = csvfile::read(&Path::new(&out).join("summary.csv")).unwrap();
    let who: Vec<(&str, &str)> = rows.iter().map(|r| (r.config.as_str(), r.player.as_str())).collect();
    assert_eq!(who, [("orthodox / hoplite", "hoplite"), ("orthodox / random", "random")]);
    assert!(rows.iter().all(|r| r.games == 4 && r.lead_changes.is_some()));
    let games: Vec<GameRow> = csvfile::read(&Path::new(&out).join("games.csv")).unwrap();
    for g in &games {
        assert_eq!(g.white, g.black, "each player against itself");
        let evals = g.evals.as_deref().unwrap();
        // `plies` counts the 8 random opening plies too; the scores start after them.
        assert_eq!(evals.split(' ').count() as u32, g.plies - 8, "a score per ply: {evals}");
        // Game i of each player starts from the same opening.
        assert_eq!(g.opening_fen, games[(g.game_id % 4) as usize].opening_fen);
    }
}

/// A run's numbers are checked against their ranges before any file is written: a run too
/// large to prepare, an opening longer than a game could be, no threads.
#[test]
fn numbers_out_of_range_are_refused_before_any_file_is_written() {
    let d = tmp_dir("limits-files");
    let balance = |name: &str, line: &str| {
        let path = d.join(name);
        std::fs::write(&path, format!("variant = \"chess\"\n{line}\n[[configs]]\nname = \"a\"\n")).unwrap();
        path.display().to_string()
    };
    let (b_games, b_depth) = (balance("games.toml", "games = 0"), balance("depth.toml", "depth = [3, 500]"));
    let selfplay = ["selfplay", "--variant", "chess"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--games", "1000000000000"], "--games 1000000000000 is outside 1..=10000000"),
        (vec!["--opening-plies", "100000"], "--opening-plies 100000 is outside 0..=200"),
        (vec!["--opening", "random", "--random-plies", "5000"], "--random-plies 5000 is outside 0..=200"),
        (vec!["--threads", "0"], "--threads 0 is outside 1..=1024"),
        (vec!["--tt-mb", "4096", "--threads", "1024"], "MiB of tables, more than half of this machine's"),
        (vec!["--nodes", "0"], "the budget's nodes 0 is below 1"),
        (vec!["--depth", "1000"], "the budget's depth 1000 is outside 1..=99"),
        (vec!["--movetime", "0"], "movetime 0 ms is below 1"),
        (vec!["--opening-nodes", "0"], "the opening player's nodes 0 is below 1"),
        (vec!["--max-plies", "0"], "--max-plies: a count of 0"),
        (vec!["--resign", "300:0"], "--resign: a count of 0"),
    ];
    let others: Vec<(Vec<&str>, &str)> = vec![
        (vec!["match", "--variant", "chess", "--a-nodes", "0"], "player A's budget: nodes 0 is below 1"),
        (vec!["datagen", "--variant", "chess", "--nodes", "0"], "nodes 0 is below 1"),
        (vec!["balance", &b_games], "games.toml:2: games = 0 is outside 1..=10000000"),
        (vec!["balance", &b_depth], "depth.toml:2: depth 500 is outside 1..=99"),
        (vec!["book", "--variant", "chess", "--positions", "100000000000"], "--positions 100000000000 is outside"),
        (vec!["spsa", "--variant", "chess", "--games", "0"], "--games 0 is outside 1..=10000000"),
        (vec!["train", "--variant", "chess", "--hidden", "100000"], "hidden units (100000) must be in 1..=4096"),
        (vec!["train", "--variant", "chess", "--rounds", "0"], "--rounds 0 is outside 1..=1000"),
        (vec!["train", "--variant", "chess", "--gauntlet-games", "0"], "--gauntlet-games 0 is outside"),
        (vec!["train", "--variant", "chess", "--lambda", "2"], "λ (2) must be in [0, 1]"),
    ];
    let all = cases.into_iter().map(|(a, said)| (selfplay.iter().copied().chain(a).collect(), said)).chain(others);
    for (args, said) in all {
        let out = tmp("limits");
        let mut args: Vec<&str> = args;
        args.extend(["--out", out.to_str().unwrap()]);
        let o = hoplite(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && stderr.contains(said), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// A resume continues only rows its own run wrote: each game once, of this run's variant,
/// configuration, seed and players; without games.csv, files of games are not written over.
#[test]
fn a_resume_continues_only_its_own_rows() {
    let whole = tmp("own-rows");
    run("chess", &whole, &[]);
    let games = std::fs::read_to_string(whole.join("games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().take(5).collect();
    let row = |i: usize| lines[i].split(',').map(String::from).collect::<Vec<_>>();
    let with = |i: usize, col: usize, value: &str| {
        let mut r = row(i);
        r[col] = value.into();
        r.join(",")
    };
    let seed = with(3, 3, "12345");
    let variant = with(3, 1, "spartan");
    let players = with(3, 4, "fairymax");
    let stranger = with(4, 0, "57");
    for (extra, said) in [
        (lines[2].to_string(), "line 6: game 1 is there twice"),
        (stranger, "line 6: game 57 is not among this run's 10 games"),
        (seed, "line 5: game 2 has seed '12345'"),
        (variant, "line 5: game 2 has variant 'spartan', but this run's game 2 has 'chess'"),
        (players, "game 2 has players 'fairymax against hoplite'"),
    ] {
        let d = tmp("own-rows-mixed");
        std::fs::create_dir_all(&d).unwrap();
        for f in ["run.toml", "positions.csv", "games.pgn"] {
            std::fs::copy(whole.join(f), d.join(f)).unwrap();
        }
        let mixed = if said.contains("twice") || said.contains("57") {
            format!("{}\n{extra}\n", lines.join("\n"))
        } else {
            // The row replaces game 2's, after game 3's: line 5.
            let mut l: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            l.remove(3);
            l.push(extra);
            l.join("\n") + "\n"
        };
        std::fs::write(d.join("games.csv"), &mixed).unwrap();
        let o = hoplite(&run_args("chess", &d, &["--resume"]).iter().map(|s| s.as_str()).collect::<Vec<_>>());
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && e.contains("games.csv") && e.contains(said), "{said}: {e}");
        assert_eq!(std::fs::read_to_string(d.join("games.csv")).unwrap(), mixed, "{said}: games.csv was changed");
    }
    // games.csv gone: its positions cannot be placed, with --resume or without.
    let d = tmp("own-rows-lost");
    std::fs::create_dir_all(&d).unwrap();
    for f in ["run.toml", "positions.csv"] {
        std::fs::copy(whole.join(f), d.join(f)).unwrap();
    }
    let positions = std::fs::read(d.join("positions.csv")).unwrap();
    for extra in [&["--resume"][..], &[]] {
        let o = hoplite(&run_args("chess", &d, extra).iter().map(|s| s.as_str()).collect::<Vec<_>>());
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && e.contains("missing or empty, but") && e.contains("positions.csv"), "{e}");
        assert_eq!(std::fs::read(d.join("positions.csv")).unwrap(), positions);
    }
    // positions.csv gone: the games' positions would be lost from the file.
    let d = tmp("own-rows-no-positions");
    std::fs::create_dir_all(&d).unwrap();
    for f in ["run.toml", "games.csv", "games.pgn"] {
        std::fs::copy(whole.join(f), d.join(f)).unwrap();
    }
    let o = hoplite(&run_args("chess", &d, &["--resume"]).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("positions.csv: missing, but games.csv holds 10 games"), "{e}");
    assert!(!d.join("positions.csv").exists());
}

/// A match and a balance run killed in the middle and resumed write the files of runs never
/// stopped (selfplay's is `a_killed_run_resumes_to_the_same_files`).
#[test]
fn killed_matches_and_balance_runs_resume_to_the_same_files() {
    let d = tmp_dir("killed-kinds");
    let file = d.join("b.toml");
    std::fs::write(&file, "variant = \"chess\"\n[[configs]]\nname = \"orthodox\"\n").unwrap();
    let kinds: [(&str, Vec<&str>, usize, &[&str]); 2] = [
        ("match", vec!["match", "--variant", "chess", "--a-nodes", "300", "--b-nodes", "200"], 12, &["match.csv"]),
        ("balance", vec!["balance", file.to_str().unwrap(), "--player", "hoplite,random", "--nodes", "300"], 24, &[]),
    ];
    for (kind, base, games, own) in kinds {
        let args = |out: &Path| -> Vec<String> {
            let more = ["--games", "12", "--max-plies", "80", "--threads", "2", "--out", out.to_str().unwrap()];
            base.iter().chain(&more).map(|s| s.to_string()).collect()
        };
        let (whole, cut) = (d.join(format!("{kind}-whole")), d.join(format!("{kind}-cut")));
        ok(&args(&whole).iter().map(|s| s.as_str()).collect::<Vec<_>>());
        let done = kill_after_games(&args(&cut), &cut, 3);
        assert!(done < games, "{kind}: the run finished before it could be killed");
        let mut resume = args(&cut);
        resume.push("--resume".into());
        ok(&resume.iter().map(|s| s.as_str()).collect::<Vec<_>>());
        for f in ["games.csv", "positions.csv", "summary.csv"].iter().chain(own) {
            let (x, y) = (std::fs::read(whole.join(f)).unwrap(), std::fs::read(cut.join(f)).unwrap());
            assert!(x == y, "{kind}: {f} differs after a kill and a resume");
        }
    }
}

/// Run directories damaged at random (games.csv cut, lines dropped, doubled, swapped or a
/// byte changed; positions.csv or games.pgn cut where a kill would cut them; a file removed)
/// and resumed: never a panic; a resume that goes on ends with every game once and each
/// game's positions those of the run never damaged; one that refuses says why.
#[test]
fn damaged_run_directories_resume_whole_or_refuse() {
    let whole = tmp("fuzz-whole");
    run("chess", &whole, &[]);
    let read = |d: &Path, f: &str| std::fs::read(d.join(f)).unwrap_or_default();
    let by_game = |positions: &[u8]| {
        let mut rows: Vec<String> = String::from_utf8_lossy(positions).lines().skip(1).map(String::from).collect();
        rows.sort();
        rows
    };
    let want = by_game(&read(&whole, "positions.csv"));
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut resumed, mut refused) = (0, 0);
    // As core/tests/fuzz.rs: HOPLITE_FUZZ_SCALE times the cases, HOPLITE_FUZZ_SEED another draw.
    let env = |name: &str, or: u64| std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(or);
    let cases = 24 * env("HOPLITE_FUZZ_SCALE", 1);
    seed = (seed ^ env("HOPLITE_FUZZ_SEED", 0)).max(1);
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    for case in 0..cases {
        let d = tmp("fuzz-case");
        std::fs::create_dir_all(&d).unwrap();
        for f in ["run.toml", "games.csv", "positions.csv", "games.pgn", "summary.csv"] {
            std::fs::copy(whole.join(f), d.join(f)).unwrap();
        }
        let games = read(&d, "games.csv");
        let mut lines: Vec<String> = String::from_utf8(games.clone()).unwrap().lines().map(String::from).collect();
        let joined = |l: &[String]| (l.join("\n") + "\n").into_bytes();
        let data = 1 + next(lines.len() - 1);
        let what = case % 8;
        let damaged = match what {
            0 => games[..next(games.len())].to_vec(),
            1 => {
                lines.remove(data);
                joined(&lines)
            }
            2 => {
                let copy = lines[data].clone();
                lines.insert(1 + next(lines.len() - 1), copy);
                joined(&lines)
            }
            3 => {
                let other = 1 + next(lines.len() - 1);
                lines.swap(data, other);
                joined(&lines)
            }
            4 => {
                let mut g = games.clone();
                let at = next(g.len());
                g[at] = b"0123456789,-x\n"[next(14)];
                g
            }
            _ => games,
        };
        std::fs::write(d.join("games.csv"), &damaged).unwrap();
        match what {
            5 | 6 => {
                // Cut where a kill could: in the last game's records, which follow every other.
                let f = if what == 5 { "positions.csv" } else { "games.pgn" };
                let bytes = read(&d, f);
                let last_game = lines[lines.len() - 1].split(',').next().unwrap().to_string();
                let start = match f {
                    "positions.csv" => String::from_utf8_lossy(&bytes).find(&format!("\n{last_game},")).unwrap(),
                    _ => String::from_utf8_lossy(&bytes).rfind("[Event ").unwrap(),
                };
                std::fs::write(d.join(f), &bytes[..start + next(bytes.len() - start)]).unwrap();
                // The cut game's row was not yet written either.
                lines.pop();
                std::fs::write(d.join("games.csv"), joined(&lines)).unwrap();
            }
            7 => std::fs::remove_file(d.join(["games.csv", "positions.csv", "games.pgn", "summary.csv"][next(4)]))
                .unwrap(),
            _ => {}
        }
        let o = hoplite(&run_args("chess", &d, &["--resume"]).iter().map(|s| s.as_str()).collect::<Vec<_>>());
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!stderr.contains("panicked") && o.status.code().is_some(), "case {case}: {stderr}");
        if o.status.success() {
            resumed += 1;
            let rows: Vec<hoplite_formats::GameRow> = hoplite_formats::csvfile::read(&d.join("games.csv")).unwrap();
            let mut ids: Vec<u64> = rows.iter().map(|r| r.game_id).collect();
            ids.sort();
            assert_eq!(ids, (0..10).collect::<Vec<_>>(), "case {case}: every game once");
            assert_eq!(by_game(&read(&d, "positions.csv")), want, "case {case}: the positions of every game");
        } else {
            refused += 1;
            assert!(stderr.starts_with("error: ") && stderr.lines().count() <= 3, "case {case}: {stderr}");
        }
    }
    eprintln!("{cases} damaged run directories: {resumed} resumed whole, {refused} refused");
    assert!(resumed > 0 && refused > 0, "{resumed} resumed, {refused} refused");
}

/// A match plays colour-swapped pairs: an odd number of games is one more, and it says so.
#[test]
fn an_odd_match_plays_whole_pairs_and_says_so() {
    let out = tmp("odd-match");
    let o = ok(&[
        "match",
        "--variant",
        "chess",
        "--games",
        "3",
        "--nodes",
        "50",
        "--max-plies",
        "10",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("--games 3: a match plays colour-swapped pairs, so 4 games"), "{stderr}");
    assert_eq!(common::games_in(&out), 4);
}
