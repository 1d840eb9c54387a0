//! Training data through the binary (`hoplite datagen`): the same bytes whatever the thread
//! count, a killed run resumes to the bytes of one never stopped, shards merge into the
//! unsharded run, every record decodes to a position not in check whose score is White's,
//! and a network is played with, recorded and held to on resume.

use hoplite_core::{Colour, Placed, Position, Setup, Variant};
use hoplite_formats::packed::{decode_all, PackedPosition};
use hoplite_formats::{csvfile, PackedIndexRow};
use hoplite_search::eval::network::{FloatNetwork, Layout, Network};
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod common;
use common::{hoplite, kill_after_games, ok, outcome, tmp, tmp_dir};

const FILES: [&str; 4] = ["games.csv", "positions.bin", "positions-index.csv", "summary.csv"];

fn assert_same_files(a: &Path, b: &Path) {
    for f in FILES {
        let (x, y) = (std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap());
        assert!(x == y, "{f} differs between {} and {}", a.display(), b.display());
    }
}

/// The small runs of these tests: 8 games of chess at 300 nodes a move, seed 5.
fn args(out: &Path, extra: &[&str]) -> Vec<String> {
    games_args(8, out, extra)
}

fn games_args(games: u32, out: &Path, extra: &[&str]) -> Vec<String> {
    let games = games.to_string();
    let base = ["datagen", "--variant", "chess", "--games", &games, "--nodes", "300", "--opening", "random"];
    let more = ["--max-plies", "120", "--seed", "5", "--out", out.to_str().unwrap()];
    base.iter().chain(&more).chain(extra).map(|s| s.to_string()).collect()
}

fn run(out: &Path, extra: &[&str]) -> String {
    let a = args(out, extra);
    String::from_utf8(ok(&a.iter().map(|s| s.as_str()).collect::<Vec<_>>()).stdout).unwrap()
}

fn records(dir: &Path) -> Vec<PackedPosition> {
    decode_all(&std::fs::read(dir.join("positions.bin")).unwrap(), &Variant::builtin("chess")).unwrap()
}

fn index(dir: &Path) -> Vec<PackedIndexRow> {
    csvfile::read(&dir.join("positions-index.csv")).unwrap()
}

/// The position a record holds (no castling or en passant: neither bears on check).
fn position(v: &Arc<Variant>, p: &PackedPosition) -> Position {
    let pieces = p.pieces.iter().map(|&(colour, ty, square)| Placed { square, colour, ty }).collect();
    Position::from_setup(v, &Setup { pieces, side: p.side, fullmove: 1, ..Default::default() }).unwrap()
}

#[test]
fn same_bytes_on_one_and_two_threads_and_every_record_is_a_quiet_position() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    let printed = run(&a, &["--threads", "1"]);
    run(&b, &["--threads", "2"]);
    assert_same_files(&a, &b);
    assert!(!a.join("positions.csv").exists(), "positions.bin takes positions.csv's place");
    let recs = records(&a);
    let rows = index(&a);
    assert_eq!(rows.iter().map(|r| r.game_id).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
    assert_eq!(rows.iter().map(|r| r.positions).sum::<u64>(), recs.len() as u64);
    assert!(recs.len() > 100, "{} positions", recs.len());
    assert!(printed.starts_with(&format!("{} positions written from 8 games, ", recs.len())), "{printed}");
    let bytes = std::fs::metadata(a.join("positions.bin")).unwrap().len();
    assert!(printed.contains(&format!("{} positions, {bytes} bytes", recs.len())), "{printed}");
    let chess = Variant::builtin("chess");
    let games: Vec<hoplite_formats::GameRow> = csvfile::read(&a.join("games.csv")).unwrap();
    let mut at = 0;
    for (row, game) in rows.iter().zip(&games) {
        for r in &recs[at..at + row.positions as usize] {
            assert!(!position(&chess, r).in_check(), "a position in check: {:?}", position(&chess, r));
            assert_eq!(r.white_score(), game.result.white_score() as f32, "game {}", game.game_id);
        }
        at += row.positions as usize;
    }
    // Both sides to move are kept.
    assert!(recs.iter().any(|r| r.side == Colour::White) && recs.iter().any(|r| r.side == Colour::Black));
}

#[test]
fn scores_are_white_s_whoever_is_to_move() {
    // Game 0 starts with White a queen up, game 1 with Black a queen up (sequential book).
    let d = tmp_dir("sign");
    let book = d.join("book.epd");
    let up = ["4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1", "3qk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"];
    std::fs::write(&book, up.join("\n") + "\n").unwrap();
    let out = d.join("run");
    let o = out.display().to_string();
    let b = book.display().to_string();
    let base = ["datagen", "--variant", "chess", "--games", "2", "--nodes", "500", "--book", &b];
    ok(&[&base[..], &["--book-order", "sequential", "--max-plies", "12", "--threads", "1", "--out", &o]].concat());
    let (recs, rows) = (records(&out), index(&out));
    let first = rows[0].positions as usize;
    let (white_up, black_up) = recs.split_at(first);
    for (recs, sign) in [(white_up, 1), (black_up, -1)] {
        assert!(recs.iter().any(|r| r.side == Colour::White) && recs.iter().any(|r| r.side == Colour::Black));
        for r in recs {
            assert!(sign * i32::from(r.score) > 400, "a queen up scored {} ({:?} to move)", r.score, r.side);
        }
    }
}

#[test]
fn a_killed_run_resumes_to_the_same_bytes() {
    let whole = tmp("uninterrupted");
    run(&whole, &["--threads", "2"]);
    let cut = tmp("killed");
    let done = kill_after_games(&args(&cut, &["--threads", "2"]), &cut, 2);
    assert!(done < 8, "the run finished before it could be killed");
    // What a kill in the middle of the next game's writes leaves: records of a game that
    // games.csv does not hold, a torn record and a torn index line.
    let append = |f: &str, bytes: &[u8]| {
        let mut all = std::fs::read(cut.join(f)).unwrap();
        all.extend_from_slice(bytes);
        std::fs::write(cut.join(f), all).unwrap();
    };
    append("positions.bin", &[20, 0xff, 3, 7]);
    append("positions-index.csv", b"7,1");
    run(&cut, &["--threads", "1", "--resume"]);
    assert_same_files(&whole, &cut);
    // A resume of a finished run changes nothing.
    let printed = run(&cut, &["--threads", "2", "--resume"]);
    assert!(printed.starts_with("0 positions written from 0 games"), "{printed}");
    assert_same_files(&whole, &cut);
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let whole = tmp("whole");
    run(&whole, &[]);
    let shards: Vec<PathBuf> = (0..2).map(|k| tmp(&format!("shard{k}"))).collect();
    for (k, d) in shards.iter().enumerate() {
        run(d, &["--shard", &format!("{k}/2")]);
    }
    let merged = tmp("merged");
    let names: Vec<String> = shards.iter().chain([&merged]).map(|d| d.display().to_string()).collect();
    let o = ok(&["merge", &names[0], &names[1], "--out", &names[2]]);
    let n = records(&whole).len();
    assert!(String::from_utf8_lossy(&o.stderr).contains(&format!("merged 8 games and {n} training positions")));
    assert_same_files(&whole, &merged);
    assert!(!merged.join("positions.csv").exists());
    // A shard whose file is of another variant is refused.
    let mut bytes = std::fs::read(shards[1].join("positions.bin")).unwrap();
    bytes[12] ^= 1;
    std::fs::write(shards[1].join("positions.bin"), bytes).unwrap();
    let again = tmp("merged-again").display().to_string();
    let (done, _, err) = outcome(&["merge", &names[0], &names[1], "--out", &again]);
    assert!(!done && err.contains("headers differ"), "{err}");
}

/// A small network for `variant`, its weights a fixed pattern, `tilt` added to its output bias.
fn network(variant: &str, path: &Path, tilt: f32) {
    let layout = Layout::of(&Variant::builtin(variant));
    let hidden = 8;
    let pattern = |n: usize, k: usize| (0..n).map(|i| ((i * k) % 97) as f32 / 97.0 - 0.45).collect::<Vec<f32>>();
    let float = FloatNetwork {
        hidden,
        ft_weights: pattern(layout.inputs() * hidden, 31),
        ft_bias: pattern(hidden, 7),
        out_weights: pattern(2 * hidden, 13),
        out_bias: tilt,
    };
    Network::quantise(layout, &float).save(path).unwrap();
}

#[test]
fn a_network_is_played_with_recorded_and_held_to() {
    let d = tmp_dir("network");
    let (chess, other, shatranj) = (d.join("chess.nnue"), d.join("chess-2.nnue"), d.join("shatranj.nnue"));
    network("chess", &chess, 0.0);
    network("chess", &other, 0.1);
    network("shatranj", &shatranj, 0.0);
    let run_with = |net: &Path, extra: &[&str]| {
        let net = net.display().to_string();
        let a = games_args(2, &d.join("run"), &[&["--network", &net][..], extra].concat());
        outcome(&a.iter().map(|s| s.as_str()).collect::<Vec<_>>())
    };
    let (done, _, err) = run_with(&shatranj, &[]);
    assert!(!done, "a network of another variant was taken");
    assert!(err.contains(&format!("{}: a network for another variant", shatranj.display())), "{err}");
    let (done, _, err) = run_with(&chess, &[]);
    assert!(done, "{err}");
    let manifest = std::fs::read_to_string(d.join("run/run.toml")).unwrap();
    assert!(manifest.contains(&format!("network = \"{}\"", chess.display())), "{manifest}");
    let hash = hoplite_search::eval::network::file_hash(&chess).unwrap();
    assert!(manifest.contains(&format!("network_hash = \"{hash:016x}\"")), "{manifest}");
    // The network decides the games: other weights play other games.
    let linear = tmp("linear");
    let a = games_args(2, &linear, &["--eval", "linear"]);
    ok(&a.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    let games = |dir: &Path| std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_ne!(games(&d.join("run")), games(&linear));
    // Another network under the same name is refused on resume, naming the file.
    std::fs::copy(&other, &chess).unwrap();
    let (done, _, err) = run_with(&chess, &["--resume"]);
    assert!(!done, "a resume took another network");
    assert!(err.contains(&format!("network {}: the run in", chess.display())), "{err}");
    // A match side and a balance run play with one too; run.toml records whose it is.
    let (net, m) = (chess.display().to_string(), d.join("match").display().to_string());
    let quick = ["--nodes", "100", "--games", "2", "--max-plies", "20", "--opening", "random"];
    ok(&[&["match", "--variant", "chess", "--a-network", &net, "--out", &m][..], &quick].concat());
    let manifest = hoplite_formats::Manifest::read(&d.join("match/run.toml")).unwrap();
    let networks: Vec<Option<&str>> = manifest.players.iter().map(|p| p.network.as_deref()).collect();
    assert_eq!(networks, [Some(net.as_str()), Some("data/networks/chess.nnue")], "B plays chess's shipped network");
    let file = d.join("b.toml");
    std::fs::write(&file, "variant = \"chess\"\n[[configs]]\nname = \"orthodox\"\n").unwrap();
    let (f, b) = (file.display().to_string(), d.join("balance").display().to_string());
    ok(&[&["balance", &f, "--player", "hoplite,random", "--network", &net, "--out", &b][..], &quick].concat());
    let manifest = hoplite_formats::Manifest::read(&d.join("balance/run.toml")).unwrap();
    let networks: Vec<Option<&str>> = manifest.players.iter().map(|p| p.network.as_deref()).collect();
    assert_eq!(networks, [Some(net.as_str()), None]);
    // Weights and a network are two evaluations.
    let o = hoplite(&[
        "datagen",
        "--network",
        "x.nnue",
        "--weights",
        "w.toml",
        "--out",
        &d.join("r2").display().to_string(),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("give one"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Without budget or opening flags a datagen run plays at its own defaults (1,000 nodes a move,
/// openings of 12 plies at 1,000 nodes), not selfplay's, as run.toml records.
#[test]
fn datagen_plays_at_its_own_defaults() {
    let out = tmp("own-defaults");
    ok(&["datagen", "--variant", "chess", "--games", "2", "--max-plies", "20", "--out", out.to_str().unwrap()]);
    let manifest = std::fs::read_to_string(out.join("run.toml")).unwrap();
    for said in ["plies = 12", "[played.player]", "budget = \"nodes 1000\""] {
        assert!(manifest.contains(said), "{said}: {manifest}");
    }
    assert!(!manifest.contains("nodes 4000") && !manifest.contains("nodes 5000"), "{manifest}");
}
