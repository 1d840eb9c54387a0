//! A player's scores of many positions, on several threads, each from a fresh game so that
//! no score depends on the thread count or on the positions scored before it: for books
//! (`hoplite book` keeps the level openings) and for labels (`hoplite label`: a stronger
//! player's evaluation as the tuner's target).

use super::{Answer, PlayerSpec, Turn};
use crate::error::RunError;
use crate::stats::score_of_elo;
use hoplite_core::{Move, Position, Variant};
use hoplite_formats::{PositionRow, WhiteScore};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A position to score, reached by `moves` from `start` (what an engine is sent).
pub struct ScoringJob<'a> {
    pub start: &'a Position,
    pub moves: &'a [Move],
    pub position: &'a Position,
}

/// The player's answer to each position.
pub fn score_all(
    variant: &Arc<Variant>,
    player: &PlayerSpec,
    jobs: &[ScoringJob],
    threads: usize,
) -> Result<Vec<Answer>, RunError> {
    let next = AtomicUsize::new(0);
    let fail = |error| RunError::Player { name: player.name().to_string(), error };
    type Scored = Result<Vec<(usize, Answer)>, RunError>;
    let results: Vec<Scored> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut p = player.start();
                    let mut rng = ChaCha8Rng::seed_from_u64(0);
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(k) else { break };
                        p.new_game(variant).map_err(fail)?;
                        let turn = Turn {
                            position: job.position,
                            start: job.start,
                            moves: job.moves,
                            clock: None,
                            rng: &mut rng,
                        };
                        out.push((k, p.score(turn).map_err(fail)?));
                    }
                    Ok(out)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("a scoring worker panicked")).collect()
    });
    let mut scores = vec![Answer::Scored(None); jobs.len()];
    for r in results {
        for (k, s) in r? {
            scores[k] = s;
        }
    }
    Ok(scores)
}

/// The rows with their results replaced by labels: `blend` times the player's win
/// probability (its score of the row's position from White's view, in centipawns, read as an
/// Elo difference: 400 multiply the odds by ten) plus `1 - blend` times the row's own
/// result. `positions[i]` is the position of `rows[i]`. A row whose position the player has
/// no move in (its rules end the game there) keeps its result; the second value counts them.
pub fn label(
    variant: &Arc<Variant>,
    player: &PlayerSpec,
    rows: &[PositionRow],
    positions: &[Position],
    blend: f64,
    threads: usize,
) -> Result<(Vec<PositionRow>, usize), RunError> {
    let jobs: Vec<ScoringJob> = positions.iter().map(|p| ScoringJob { start: p, moves: &[], position: p }).collect();
    let answers = score_all(variant, player, &jobs, threads)?;
    let kept = answers.iter().filter(|&&a| a == Answer::NoMove).count();
    let labelled = rows
        .iter()
        .zip(positions)
        .zip(answers)
        .map(|((row, pos), answer)| {
            let score = match answer {
                Answer::NoMove => return Ok(row.clone()),
                Answer::Scored(s) => {
                    s.ok_or_else(|| RunError::NoScore { name: player.name().to_string(), fen: row.fen.clone() })?
                }
            };
            let white = pos.side_to_move().sign() * score;
            let label = blend * score_of_elo(white as f64) + (1.0 - blend) * row.result.get();
            Ok(PositionRow { result: WhiteScore::new(label.clamp(0.0, 1.0)).expect("within 0 to 1"), ..row.clone() })
        })
        .collect::<Result<_, RunError>>()?;
    Ok((labelled, kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hoplite_search::Budget;

    fn row(fen: &str, result: f64) -> PositionRow {
        PositionRow { game_id: 1, ply: 10, fen: fen.into(), result: WhiteScore::new(result).unwrap() }
    }

    #[test]
    fn a_label_is_the_players_win_probability_from_whites_view() {
        let v = Variant::builtin("chess");
        let hoplite =
            PlayerSpec::Hoplite { name: "h".into(), budget: Budget::nodes(300), files: Default::default(), hash_mb: 1 };
        // White a queen up; the same with Black to move (the score turns to White's view);
        // Black a queen up.
        let fens =
            ["4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1", "4k3/3q4/8/8/8/8/8/4K3 w - - 0 1"];
        let rows: Vec<PositionRow> = fens.iter().map(|f| row(f, 0.5)).collect();
        let positions: Vec<Position> = fens.iter().map(|f| Position::from_fen(&v, f).unwrap()).collect();
        let (labels, kept) = label(&v, &hoplite, &rows, &positions, 1.0, 2).unwrap();
        assert_eq!(kept, 0);
        let p: Vec<f64> = labels.iter().map(|r| r.result.get()).collect();
        assert!(p[0] > 0.95 && p[1] > 0.95 && p[2] < 0.05, "{p:?}");
        // Half the label from the game's result (a draw here): halfway to 0.5.
        let (half, _) = label(&v, &hoplite, &rows, &positions, 0.5, 1).unwrap();
        assert!((half[0].result.get() - (0.5 * p[0] + 0.25)).abs() < 1e-9);
        // The same labels on one thread as on two.
        assert_eq!(label(&v, &hoplite, &rows, &positions, 1.0, 1).unwrap().0, labels);
        // A player without scores cannot label.
        let random = PlayerSpec::Random { name: "r".into() };
        let err = label(&v, &random, &rows, &positions, 1.0, 1).unwrap_err().to_string();
        assert!(err.contains("gave no score for 4k3/8/8/8/8/8/3Q4/4K3 w"), "{err}");
    }

    #[test]
    fn a_score_is_read_as_an_elo_difference() {
        assert_eq!(score_of_elo(0.0), 0.5);
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((score_of_elo(-400.0) - 1.0 / 11.0).abs() < 1e-12);
    }
}
