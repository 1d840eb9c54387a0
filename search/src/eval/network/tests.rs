use super::*;
use hoplite_core::seed::mix64;
use hoplite_core::BUILTINS;

fn network(v: &Variant, seed: u64) -> Network {
    let layout = Layout::of(v);
    let f = FloatNetwork::seeded(&layout, 32, seed, 0.2);
    Network::quantise(layout, &f)
}

/// Random playouts of every built-in (captures, promotions, castling, en passant, Spartan's
/// two kings) and of two games with hands (drops, captures to the hand, demotion): the
/// accumulators kept move by move equal those made from the board, at every ply and back
/// again.
#[test]
fn incremental_accumulators_equal_a_refresh_along_random_playouts() {
    let names = BUILTINS.iter().map(|b| b.name).chain(["crazyhouse", "shogi", "atomic"]);
    for (g, name) in names.enumerate() {
        let v = Variant::builtin(name);
        let net = network(&v, g as u64);
        for game in 0..12u64 {
            let mut pos = Position::startpos(&v);
            let mut acc = Accumulators::new(&net);
            acc.refresh(&net, &pos);
            let start = acc.evaluate(&net, pos.side_to_move());
            let mut moves = Vec::new();
            let mut plies = 0;
            for ply in 0..160u64 {
                pos.legal_moves(&mut moves);
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let m = moves[(mix64(game << 16 | ply) % moves.len() as u64) as usize];
                acc.push(&net, &pos.changes(m));
                pos.make(m);
                plies += 1;
                assert_eq!(acc.evaluate(&net, pos.side_to_move()), net.evaluate(&pos), "{name} {}", pos.to_fen());
                let mut fresh = Accumulators::new(&net);
                fresh.refresh(&net, &pos);
                for side in Colour::BOTH {
                    assert_eq!(acc.top(side), fresh.top(side), "{name} {}", pos.to_fen());
                }
            }
            for _ in 0..plies {
                acc.pop();
                pos.unmake();
            }
            assert_eq!(acc.evaluate(&net, pos.side_to_move()), start);
        }
    }
}

/// The integer network follows the float one within 2% of `SCALE` (8 cp) on positions of
/// every built-in, 2 cp on average, its weights of the size a trained network has.
#[test]
fn quantised_inference_follows_the_float_network() {
    let (mut worst, mut total, mut n) = (0.0f32, 0.0f32, 0);
    for (g, b) in BUILTINS.iter().enumerate() {
        let v = Variant::builtin(b.name);
        let layout = Layout::of(&v);
        let f = FloatNetwork::seeded(&layout, 64, 100 + g as u64, 0.1);
        let net = Network::quantise(layout.clone(), &f);
        let mut pos = Position::startpos(&v);
        let mut moves = Vec::new();
        for ply in 0..60u64 {
            let us = pos.side_to_move();
            let float = f.forward(&layout.active(&pos, us), &layout.active(&pos, !us)) * SCALE as f32;
            let diff = (net.evaluate(&pos) as f32 - float).abs();
            (worst, total, n) = (worst.max(diff), total + diff, n + 1);
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[(mix64(ply + 7) % moves.len() as u64) as usize]);
        }
    }
    assert!(worst <= 0.02 * SCALE as f32, "worst difference {worst} cp");
    assert!(total / n as f32 <= 2.0, "mean difference {} cp", total / n as f32);
}

#[test]
fn a_network_file_round_trips() {
    let v = Variant::builtin("sultan");
    let net = network(&v, 5);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes, "sultan.nnue", &net.layout, "sultan"), Ok(net));
}

#[test]
fn a_file_for_another_variant_or_damaged_is_refused() {
    let chess = Variant::builtin("chess");
    let net = network(&chess, 9);
    let bytes = net.to_bytes();
    let load = |b: &[u8], v: &Variant| Network::from_bytes(b, "n.nnue", &Layout::of(v), &v.name);
    let shatranj = Variant::builtin("shatranj");
    let e = load(&bytes, &shatranj).unwrap_err();
    assert!(matches!(e, NetworkError::OtherVariant { .. }), "{e}");
    let text = e.to_string();
    assert!(text.starts_with("n.nnue: a network for another variant: made for 8x8 pnbrqk"), "{text}");
    assert!(text.contains("shatranj is 8x8 pnbrqk"), "{text}");
    let e = load(&bytes[..bytes.len() - 3], &chess).unwrap_err();
    assert!(matches!(e, NetworkError::Truncated { .. }), "{e}");
    assert!(matches!(load(&bytes[..20], &chess), Err(NetworkError::ShortHeader { .. })));
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 2] ^= 0x10;
    assert!(matches!(load(&flipped, &chess), Err(NetworkError::Checksum { .. })));
    let mut other = bytes.clone();
    other[8] = 2;
    assert!(matches!(load(&other, &chess), Err(NetworkError::Version { found: 2, .. })));
    assert!(matches!(load(b"[chess]\nmaterial = 1\n", &chess), Err(NetworkError::NotANetwork { .. })));
}

/// A search with a network: the same tree twice, and its best move legal.
#[test]
fn a_search_with_a_network_is_deterministic() {
    use crate::{Budget, Evaluator, Search};
    let v = Variant::builtin("spartan");
    let run = || {
        let evaluator = Evaluator::with_network(&v, network(&v, 3));
        let mut pos = Position::startpos(&v);
        let r = Search::new(evaluator, 1).search(&mut pos, Budget::nodes(20_000));
        (pos.move_to_uci(r.best.unwrap()), r.nodes, r.score)
    };
    assert_eq!(run(), run());
}

/// A built-in with a shipped network plays it by default, and so does a variant that extends it
/// with other rules; a variant that changes a piece, and a built-in without one, play their
/// weights; asking for a network none is shipped for is refused, naming the variant.
#[test]
fn a_shipped_network_is_the_default_where_it_fits() {
    use crate::eval::{shipped_network, EvalKind, Evaluator};
    use crate::Weights;
    let is_network = |v: &Variant| matches!(Evaluator::for_variant(v), Evaluator::Network(..));
    let chess = Variant::builtin("chess");
    assert!(is_network(&chess), "data/networks/chess.nnue");
    let rule =
        Variant::from_toml("r.toml", "extends = \"chess\"\nname = \"mine\"\n[rules]\nstalemate = \"win\"\n").unwrap();
    assert!(is_network(&rule), "another rule, the same pieces");
    let (name, _, hash) = shipped_network(&rule).unwrap();
    assert_eq!(name, "chess");
    assert_eq!(hash, bytes_hash(hoplite_core::shipped_network("chess").unwrap()));
    let piece =
        Variant::from_toml("p.toml", "extends = \"chess\"\n[[pieces]]\nletter = \"n\"\nbetza = \"NW\"\n").unwrap();
    assert_eq!(Evaluator::for_variant(&piece), Evaluator::from(Weights::for_variant(&piece)), "a changed piece");
    assert_eq!(Evaluator::of_kind(&chess, Some(EvalKind::Linear)).unwrap(), Weights::for_variant(&chess).into());
    // Chess's pieces with drops: a network that sees only the board does not fit.
    assert!(!is_network(&Variant::builtin("crazyhouse")), "crazyhouse plays its weights");
    for b in BUILTINS {
        let v = Variant::builtin(b.name);
        let shipped = hoplite_core::shipped_network(b.name).is_some();
        assert_eq!(is_network(&v), shipped, "{}", b.name);
        if !shipped {
            let refused = Evaluator::of_kind(&v, Some(EvalKind::Network)).unwrap_err().to_string();
            assert!(refused.contains(&format!("no network is shipped for {}", b.name)), "{refused}");
        }
    }
    let refused = Evaluator::of_kind(&piece, Some(EvalKind::Network)).unwrap_err().to_string();
    assert!(refused.contains(&format!("no network is shipped for {}", piece.name)), "{refused}");
}
