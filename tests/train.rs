//! `hoplite train` from the command line: rounds of data, training and gauntlet; the same
//! network bytes on one thread and on two; a training stopped after a round and resumed ends
//! with the files of one never stopped.

mod common;
use common::{games_in, kill_when, ok, tmp};
use std::path::Path;

fn train(out: &Path, rounds: &str, extra: &[&str]) {
    let mut args = vec!["train", "--variant", "chess", "--out", out.to_str().unwrap(), "--rounds", rounds];
    args.extend(["--games", "6", "--nodes", "300", "--epochs", "2", "--hidden", "16"]);
    args.extend(["--gauntlet-games", "4", "--gauntlet-nodes", "200"]);
    args.extend(extra);
    ok(&args);
}

fn read(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
}

#[test]
fn training_is_the_same_on_any_threads_and_resumes_to_the_same_files() {
    let (one, two, resumed) = (tmp("one"), tmp("two"), tmp("resumed"));
    train(&one, "2", &["--threads", "1"]);
    train(&two, "2", &["--threads", "2"]);
    train(&resumed, "1", &["--threads", "2"]);
    train(&resumed, "2", &["--threads", "2", "--resume"]);
    for file in [
        "network.nnue",
        "rounds.csv",
        "round-1/data/positions.bin",
        "round-2/data/positions.bin",
        "round-2/network.nnue",
        "round-2/gauntlet-previous/games.csv",
    ] {
        assert_eq!(read(&one, file), read(&two, file), "{file}: 1 and 2 threads");
        assert_eq!(read(&two, file), read(&resumed, file), "{file}: resumed");
    }
    let rounds = String::from_utf8(read(&one, "rounds.csv")).unwrap();
    assert_eq!(rounds.lines().count(), 3, "{rounds}");
    assert!(rounds.starts_with("round,positions,train_loss,valid_loss,elo_linear,"), "{rounds}");
    // The trainer's flags reach its checkpoint: resumed with another batch or learning rate,
    // the training refuses, naming the setting.
    for (flag, value, said) in [("--batch", "512", "not batch=512"), ("--lr", "0.01", "not lr=0.01")] {
        let mut args = vec!["train", "--variant", "chess", "--out", one.to_str().unwrap(), "--rounds", "2"];
        args.extend(["--games", "6", "--nodes", "300", "--epochs", "2", "--hidden", "16"]);
        args.extend(["--gauntlet-games", "4", "--gauntlet-nodes", "200", "--threads", "1", "--resume", flag, value]);
        let o = common::hoplite(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && stderr.contains(said), "{flag}: {stderr}");
    }
    // Round 1 trained from the first run's data file (as a merged datagen run would give it)
    // is that run's round-1 network, byte for byte, with no self-play of its own.
    let from_data = tmp("from-data");
    let data = one.join("round-1/data");
    train(&from_data, "1", &["--threads", "2", "--data", data.to_str().unwrap()]);
    assert_eq!(read(&from_data, "network.nnue"), read(&one, "round-1/network.nnue"));
    assert!(!from_data.join("round-1/data").exists());
    // The report of a training: its rounds with their Elo, the loss curves, each round's data.
    ok(&["report", one.to_str().unwrap()]);
    let html = String::from_utf8(read(&one, "report.html")).unwrap();
    assert!(html.contains("<title>hoplite train: chess</title>"), "{html}");
    let row2 = rounds.lines().nth(2).unwrap().split(',').collect::<Vec<_>>();
    let elo = format!("{:+.1} ± {:.1}", row2[4].parse::<f64>().unwrap(), row2[5].parse::<f64>().unwrap());
    assert!(html.contains(&elo) && html.contains("Elo against the linear evaluation per round"), "{elo}");
    assert!(html.contains("round 2 training") && html.contains("Loss per epoch"));
    for r in 1..=2 {
        let games: Vec<hoplite_formats::GameRow> =
            hoplite_formats::csvfile::read(&one.join(format!("round-{r}/data/games.csv"))).unwrap();
        let wins = |res| games.iter().filter(|g| g.result == res).count();
        use hoplite_core::GameResult::{BlackWins, Draw, WhiteWins};
        let cells =
            format!("<td>{r}</td><td>6</td><td>{} / {} / {}</td>", wins(WhiteWins), wins(Draw), wins(BlackWins));
        assert!(html.contains(&cells), "{cells}");
    }
    ok(&["report", from_data.to_str().unwrap()]);
    assert!(String::from_utf8(read(&from_data, "report.html")).unwrap().contains("given positions (--data)"));
    // Without --resume, a folder that holds a training is not written over.
    let o = common::hoplite(&["train", "--variant", "chess", "--out", one.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not empty: give --resume"));
}

/// Killed at any stage (generating, training, playing the gauntlet) and resumed, a training
/// ends with the files of one never stopped.
#[test]
fn a_training_killed_at_each_stage_resumes_to_the_same_files() {
    let args = |out: &Path, resume: bool| -> Vec<String> {
        let mut a = vec!["train", "--variant", "chess", "--out", out.to_str().unwrap(), "--rounds", "1"];
        a.extend(["--games", "12", "--nodes", "300", "--epochs", "6", "--hidden", "16", "--batch", "64"]);
        a.extend(["--gauntlet-games", "8", "--gauntlet-nodes", "200", "--threads", "2"]);
        if resume {
            a.push("--resume");
        }
        a.into_iter().map(String::from).collect()
    };
    let (whole, cut) = (tmp("whole"), tmp("cut"));
    ok(&args(&whole, false).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    let round = cut.join("round-1");
    type Moment<'a> = Box<dyn Fn() -> bool + 'a>;
    let stages: [(&str, Moment); 3] = [
        ("data", Box::new(|| games_in(&round.join("data")) >= 3)),
        ("training", Box::new(|| round.join("loss.csv").exists())),
        ("gauntlet", Box::new(|| games_in(&round.join("gauntlet-linear")) >= 2)),
    ];
    for (k, (stage, now)) in stages.iter().enumerate() {
        assert!(kill_when(&args(&cut, k > 0), now), "the training ended before the {stage} stage's kill");
    }
    ok(&args(&cut, true).iter().map(|s| s.as_str()).collect::<Vec<_>>());
    for file in ["network.nnue", "rounds.csv", "round-1/data/positions.bin", "round-1/gauntlet-linear/games.csv"] {
        assert_eq!(read(&whole, file), read(&cut, file), "{file}");
    }
    // The loss curve too, but for its last column (the seconds each epoch took).
    let losses = |dir: &Path| -> Vec<String> {
        let text = String::from_utf8(read(dir, "round-1/loss.csv")).unwrap();
        text.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect()
    };
    assert_eq!(losses(&whole), losses(&cut));
}

/// The network kept in data/networks plays chess, and is refused for another variant, naming
/// the file.
#[test]
fn the_kept_chess_network_plays_and_is_refused_elsewhere() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/data/networks/chess.nnue");
    let out = tmp("kept-network");
    let base = ["match", "--a-network", net, "--games", "2", "--nodes", "200", "--max-plies", "40", "--out"];
    ok(&[&base[..], &[out.to_str().unwrap(), "--variant", "chess"]].concat());
    let o = common::hoplite(&[&base[..], &[tmp("kept-elsewhere").to_str().unwrap(), "--variant", "shatranj"]].concat());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && stderr.contains("chess.nnue"), "{stderr}");
}

/// Chess's shipped network is its default evaluation: run.toml names it with its hash, a run
/// with `--eval linear` plays other games and records none, as runs before networks did; a resume after the shipped network changed is
/// refused, and `--eval network` for a variant none is shipped for is refused before any file.
#[test]
fn the_shipped_network_is_the_default_and_eval_linear_chooses_the_weights() {
    let (net, lin) = (tmp("default-network"), tmp("eval-linear"));
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec!["selfplay", "--variant", "chess", "--games", "2", "--nodes", "300", "--max-plies", "30"];
        args.extend(["--threads", "1", "--out", out.to_str().unwrap()]);
        args.extend(extra);
        common::hoplite(&args)
    };
    assert!(run(&net, &[]).status.success());
    assert!(run(&lin, &["--eval", "linear"]).status.success());
    let manifest = String::from_utf8(read(&net, "run.toml")).unwrap();
    let hash = hoplite_search::eval::network::bytes_hash(hoplite_core::shipped_network("chess").unwrap());
    let recorded = format!("network = \"data/networks/chess.nnue\"\nnetwork_hash = \"{hash:016x}\"");
    assert!(manifest.contains(&recorded), "{manifest}");
    assert!(!String::from_utf8(read(&lin, "run.toml")).unwrap().contains("network"), "the linear evaluation, as ever");
    assert_ne!(read(&net, "games.csv"), read(&lin, "games.csv"), "the network and the weights play other games");
    // The same run by a hoplite whose chess network is another.
    std::fs::write(net.join("run.toml"), manifest.replace(&format!("{hash:016x}"), "0123456789abcdef")).unwrap();
    let o = run(&net, &["--resume"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && stderr.contains("data/networks/chess.nnue"), "{stderr}");
    // A match side chooses its own: B with the weights records no network.
    let m = tmp("eval-match");
    ok(&[
        "match",
        "--variant",
        "chess",
        "--b-eval",
        "linear",
        "--games",
        "2",
        "--nodes",
        "100",
        "--max-plies",
        "10",
        "--out",
        m.to_str().unwrap(),
    ]);
    let players = hoplite_formats::Manifest::read(&m.join("run.toml")).unwrap().players;
    let networks: Vec<Option<&str>> = players.iter().map(|p| p.network.as_deref()).collect();
    assert_eq!(networks, [Some("data/networks/chess.nnue"), None]);
    // A variant whose knight is another piece has no network.
    let changed = common::tmp_dir("changed-knight").join("wazir-knights.toml");
    std::fs::write(
        &changed,
        "extends = \"chess\"\nname = \"wazir-knights\"\n[[pieces]]\nletter = \"n\"\nbetza = \"NW\"\n",
    )
    .unwrap();
    let changed = changed.to_str().unwrap();
    let none = tmp("eval-network-changed");
    let o = common::hoplite(&["selfplay", "--variant", changed, "--eval", "network", "--out", none.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && stderr.contains("no network is shipped for wazir-knights"), "{stderr}");
    assert!(!none.exists());
    // A book's player and a labeller take the choice too.
    let epd = tmp("eval-network-changed.epd");
    for args in [
        &["book", "--variant", changed, "--games", "2", "--eval", "network", "--out"][..],
        &["label", "--variant", changed, "--player", "hoplite", "--eval", "network", "--positions", "p.csv", "--out"],
    ] {
        let o = common::hoplite(&[args, &[epd.to_str().unwrap()]].concat());
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            !o.status.success() && stderr.contains("no network is shipped for wazir-knights"),
            "{args:?}: {stderr}"
        );
    }
}

/// A balance run compares its configurations with one kind of evaluation: where a changed
/// piece has no network, every configuration plays the weights, and run.toml records none.
#[test]
fn a_balance_run_with_a_changed_piece_plays_the_weights_everywhere() {
    let d = common::tmp_dir("balance-eval");
    // run.toml of a balance run of these configurations.
    let manifest = |name: &str, configs: &str| {
        let (file, out) = (d.join(format!("{name}.toml")), d.join(name));
        std::fs::write(&file, format!("variant = \"chess\"\n{configs}")).unwrap();
        let args = ["balance", file.to_str().unwrap(), "--nodes", "100", "--games", "2", "--max-plies", "20"];
        ok(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
        String::from_utf8(read(&out, "run.toml")).unwrap()
    };
    let orthodox = "[[configs]]\nname = \"orthodox\"\n";
    let changed = "[[configs]]\nname = \"wazir knights\"\n[[configs.pieces]]\nletter = \"n\"\nbetza = \"NW\"\n";
    let both = manifest("both", &format!("{orthodox}{changed}"));
    assert!(!both.contains("network"), "{both}");
    let one = manifest("one", orthodox);
    assert!(one.contains("network = \"data/networks/chess.nnue\""), "every configuration has it: {one}");
}
