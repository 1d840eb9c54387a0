//! Game-end detection: the result and the rule that decided it.

use crate::bitboard::Bits;
use crate::position::Position;
use crate::types::{Colour, PieceType, TypeSet, MAX_TYPES};
use crate::variant::{EndValue, MaterialCounting, ShatarMate};
use serde::{Deserialize, Serialize};

/// A game's result, written as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

impl GameResult {
    pub fn win_for(colour: Colour) -> GameResult {
        match colour {
            Colour::White => GameResult::WhiteWins,
            Colour::Black => GameResult::BlackWins,
        }
    }
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
    /// White's score: 1, 0.5 or 0.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
    /// The score of side `colour`: 1, 0.5 or 0.
    pub fn score_for(self, colour: Colour) -> f64 {
        if colour == Colour::White {
            self.white_score()
        } else {
            1.0 - self.white_score()
        }
    }
    /// The result from a text (`1-0`, `0-1`, `1/2-1/2`).
    pub fn parse(text: &str) -> Option<GameResult> {
        [GameResult::WhiteWins, GameResult::BlackWins, GameResult::Draw].into_iter().find(|r| r.as_str() == text)
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rule, the arbiter's decision or the player's failure that ended a game, as games.csv
/// names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    BareKing,
    MaxPlies,
    Adjudication,
    /// A player returned a move that is not legal (or refused a legal one): it loses.
    IllegalMove,
    /// A player's process died or stopped answering the protocol: it loses.
    Crash,
    /// A player gave no move within its deadline under a node, depth or time-per-move budget.
    Timeout,
    /// A player overstepped its clock.
    TimeForfeit,
    /// A side ran out of the pieces the extinction rule names.
    Extinction,
    /// A side's flag pieces reached their region.
    Flag,
    /// n-check: a side gave the checks that win.
    Checks,
    /// A side made its line (`[rules] connect`).
    Connect,
    /// Makruk's counting ran out (`[rules] counting`).
    Counting,
    /// A side castled to win, or lost the rights to (`[rules] castling_wins`).
    Castling,
}

impl Termination {
    pub const ALL: [Termination; 18] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::BareKing,
        Termination::MaxPlies,
        Termination::Adjudication,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Timeout,
        Termination::TimeForfeit,
        Termination::Extinction,
        Termination::Flag,
        Termination::Checks,
        Termination::Connect,
        Termination::Counting,
        Termination::Castling,
    ];
    /// Whether a rule of the game ended it (not the ply limit, the adjudicator or a player's
    /// failure).
    pub fn by_rule(self) -> bool {
        matches!(
            self,
            Termination::Checkmate
                | Termination::Stalemate
                | Termination::Repetition
                | Termination::FiftyMoves
                | Termination::InsufficientMaterial
                | Termination::BareKing
                | Termination::Extinction
                | Termination::Flag
                | Termination::Checks
                | Termination::Connect
                | Termination::Counting
                | Termination::Castling
        )
    }

    /// The name used in games.csv.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::BareKing => "bare_king",
            Termination::MaxPlies => "max_plies",
            Termination::Adjudication => "adjudication",
            Termination::IllegalMove => "illegal_move",
            Termination::Crash => "crash",
            Termination::Timeout => "timeout",
            Termination::TimeForfeit => "time_forfeit",
            Termination::Extinction => "extinction",
            Termination::Flag => "flag",
            Termination::Checks => "checks",
            Termination::Connect => "connect",
            Termination::Counting => "counting",
            Termination::Castling => "castling",
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<B: Bits> Position<B> {
    /// How the game ends here, if it does: the one definition of a game's end, which the game
    /// loop, the search (through `draw_or_decision`) and UCI share. In order of precedence:
    /// a variant's decision (a bare king, extinction, a flag, n-check); no legal move
    /// (checkmate, or stalemate as the variant scores them); then the move rule, repetition
    /// and insufficient material. So a mate on the hundredth ply is a mate, not a draw.
    pub fn outcome(&self) -> Option<(GameResult, Termination)> {
        self.draw_or_decision(self.variant.rules.repetitions as usize)
            .or_else(|| (!self.has_legal_move()).then(|| self.no_moves_result()))
    }

    /// `outcome` for a caller that generates the moves itself, as a search does: every ending
    /// but "no legal move and no draw rule applies", which it finds when the move list comes
    /// out empty. Legal moves are generated here only when a draw rule applies, to let a mate or
    /// stalemate take precedence. `repetitions`: the occurrences of a position that end the
    /// game (the variant's count in a game; a search may count fewer), 0 for never.
    pub fn draw_or_decision(&self, repetitions: usize) -> Option<(GameResult, Termination)> {
        if let Some(end) = self.decided_by_rule() {
            return Some(end);
        }
        let rules = &self.variant.rules;
        let (result, end) = if self.count_ran_out() {
            (GameResult::Draw, Termination::Counting)
        } else if rules.move_rule > 0 && self.halfmove_clock() >= rules.move_rule {
            (GameResult::Draw, Termination::FiftyMoves)
        } else if repetitions > 0 && self.repetitions() + 1 >= repetitions {
            (self.repetition_result(), Termination::Repetition)
        } else if self.insufficient_material() {
            (GameResult::Draw, Termination::InsufficientMaterial)
        } else {
            return None;
        };
        if self.has_legal_move() {
            Some((self.counted(result), end))
        } else {
            Some(self.no_moves_result())
        }
    }

    /// The result of a repetition: the variant's value for the side to move, unless one side
    /// checked on every move since the position stood here before (it loses, where the rule
    /// says so).
    fn repetition_result(&self) -> GameResult {
        let rules = &self.variant.rules;
        let us = self.side_to_move();
        if rules.perpetual_check {
            // The plies since the earlier occurrence, the last one first: ours are odd.
            let cycle = self.repetition_cycle();
            let checked_by = |who: usize| cycle.iter().skip(who).step_by(2).all(|&checked| checked);
            match (checked_by(0), checked_by(1)) {
                (true, false) => return GameResult::win_for(us),
                (false, true) => return GameResult::win_for(!us),
                _ => {}
            }
        }
        rules.repetition_value.result_for(if rules.repetition_absolute { Colour::White } else { us })
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        !moves.is_empty()
    }

    /// Whether the check here was given by a drop of a `drop_mate` type, every checking piece
    /// being one: as Fairy-Stockfish judges it, the last move took nothing and changed the
    /// material (a drop, or a promotion).
    fn mated_by_drop(&self) -> bool {
        let types = self.variant.rules.drop_mate;
        let Some(m) = self.last_move() else { return false };
        if types.is_empty() || self.last_captured().is_some() || !(m.is_drop() || m.promoted().is_some()) {
            return false;
        }
        self.checkers_all_of(types)
    }

    /// The pieces that attack the side to move's royal pieces.
    pub(crate) fn checkers(&self) -> crate::Bitboard<B> {
        let them = !self.side_to_move();
        let occ = self.occupied();
        self.royals(!them).into_iter().fold(crate::Bitboard::EMPTY, |a, r| a | self.attackers_to(r, them, occ))
    }

    /// Whether every piece that gives check is of `types`.
    fn checkers_all_of(&self, types: TypeSet) -> bool {
        self.checkers().into_iter().all(|sq| self.piece_at(sq).is_some_and(|(_, t)| types.contains(t)))
    }

    /// Shatar's verdict on a mate, where it is not the variant's checkmate result: a loss for
    /// the mating side when only `not_alone` pieces give it, a draw when no check of its
    /// unbroken run of checks came from a `shak` piece (as Fairy-Stockfish walks them back).
    fn shatar_verdict(&self, rule: ShatarMate) -> Option<GameResult> {
        let us = self.side_to_move();
        if !rule.not_alone.is_empty() && self.checkers_all_of(rule.not_alone) {
            return Some(GameResult::win_for(us));
        }
        let mut p = self.clone();
        loop {
            let checkers = p.checkers();
            if checkers.is_empty() {
                break;
            }
            if checkers.into_iter().any(|sq| p.piece_at(sq).is_some_and(|(_, t)| rule.shak.contains(t))) {
                return None;
            }
            if p.last_move().is_none() {
                break;
            }
            p.unmake();
            if p.last_move().is_none() {
                break;
            }
            p.unmake();
        }
        Some(GameResult::Draw)
    }

    /// The result when the side to move has no legal move: checkmate (royal or pseudo-royal
    /// pieces attacked), a bared side that cannot reply, or stalemate, as the variant scores
    /// them.
    pub fn no_moves_result(&self) -> (GameResult, Termination) {
        let rules = &self.variant.rules;
        let us = self.side_to_move();
        let them = !us;
        if self.in_check() {
            if self.mated_by_drop() {
                return (GameResult::win_for(us), Termination::Checkmate);
            }
            if let Some(result) = rules.shatar_mate.and_then(|rule| self.shatar_verdict(rule)) {
                return (result, Termination::Checkmate);
            }
            return (rules.checkmate.result_for(us), Termination::Checkmate);
        }
        if rules.pass_on_stalemate && self.both_passed() {
            return (GameResult::Draw, Termination::Stalemate);
        }
        if rules.bare_king == crate::variant::BareKing::Reply && self.is_bare(us) {
            return (GameResult::win_for(them), Termination::BareKing);
        }
        let value = match rules.stalemate_count {
            // By piece count: equal draws, fewer gets the stalemate's value, more its opposite.
            true => match self.colour_bb(us).count().cmp(&self.colour_bb(them).count()) {
                std::cmp::Ordering::Equal => EndValue::Draw,
                std::cmp::Ordering::Less => rules.stalemate,
                std::cmp::Ordering::Greater => rules.stalemate.opposite(),
            },
            false => rules.stalemate,
        };
        (self.counted(value.result_for(us)), Termination::Stalemate)
    }

    /// A draw as material counting turns it (a win for the side with draw odds, or for more
    /// pieces); other results as they are.
    fn counted(&self, result: GameResult) -> GameResult {
        if result != GameResult::Draw {
            return result;
        }
        match self.variant.rules.material_counting {
            MaterialCounting::None => result,
            MaterialCounting::BlackDrawOdds => GameResult::win_for(Colour::Black),
            MaterialCounting::WhiteDrawOdds => GameResult::win_for(Colour::White),
            MaterialCounting::Unweighted => {
                match self.colour_bb(Colour::White).count().cmp(&self.colour_bb(Colour::Black).count()) {
                    std::cmp::Ordering::Equal => result,
                    std::cmp::Ordering::Greater => GameResult::win_for(Colour::White),
                    std::cmp::Ordering::Less => GameResult::win_for(Colour::Black),
                }
            }
        }
    }

    /// Whether the material on the board matches one of the variant's drawn patterns.
    pub fn insufficient_material(&self) -> bool {
        let v = &*self.variant;
        if v.insufficient.is_empty() || self.men().count() > v.insufficient_max_pieces || self.holds_any() {
            return false;
        }
        let counts: [[u8; MAX_TYPES]; 2] =
            Colour::BOTH.map(|c| std::array::from_fn(|t| self.pieces(c, PieceType::new(t)).count() as u8));
        v.insufficient
            .iter()
            .any(|p| (p[0] == counts[0] && p[1] == counts[1]) || (p[0] == counts[1] && p[1] == counts[0]))
    }
}
