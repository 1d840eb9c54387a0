//! A deliberately simple reference move generator: a mailbox board (`Vec<Option<Piece>>`), no
//! bitboards, no attack tables, no code shared with the fast generator. It reads only the parsed
//! variant data (`Variant` fields: geometry, pieces and their Betza rules, promotion and castling
//! settings, bare-king and opening rules, `betza::lame_path`) and parses the FEN itself.
//!
//! Rules implemented (docs/variants/ describes each variant):
//! - Black's steps are White's with the rank direction negated.
//! - `i` rules apply on the ranks where the piece type stands in the setup for its colour.
//! - `n` (lame) steps are blocked by any piece on `lame_path` of the step.
//! - A side is in check when all its royal pieces on the board are attacked; a move is legal
//!   when the mover is not in check afterwards.
//! - Castling, en passant, promotion with `lost_only` / `distinct_colour`, opening moves,
//!   bare-king decided positions, `no_same_capture`.

use hoplite_core::betza::{lame_path, MoveRule};
use hoplite_core::{BareKing, OpeningMode, Variant};
use hoplite_core::{PieceType, Square};

// Colours, types and squares are plain numbers here, as nothing of the fast generator's is shared.
const WHITE: usize = 0;
const BLACK: usize = 1;

/// (colour, type).
pub type Piece = (usize, usize);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    Castle { rook_from: usize, rook_to: usize },
    EnPassant { victim: usize },
}

#[derive(Clone, Copy, Debug)]
pub struct RefMove {
    pub from: usize,
    pub to: usize,
    pub promo: Option<usize>,
    pub kind: Kind,
    /// One of the variant's special opening moves (Rumi).
    pub opening: bool,
}

/// A position on the mailbox board. Square index: `rank * files + file`, a1 = 0.
#[derive(Clone, Debug)]
pub struct Board {
    pub cells: Vec<Option<Piece>>,
    pub side: usize,
    /// K, Q, k, q.
    pub rights: [bool; 4],
    pub ep: Vec<usize>,
    /// The player's move number: opening moves depend on it.
    pub fullmove: u32,
}

/// Things the generator noticed, for coverage figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Notes {
    /// The position is decided by the bare-king rule.
    pub decided: bool,
    pub in_check: bool,
    /// Some but not all royals of the side to move are attacked (Spartan kings).
    pub royal_attacked_not_check: bool,
    /// A move onto the promotion zone was dropped because no promotion type was allowed.
    pub promotion_blocked: bool,
    /// A promotion type was withheld by `lost_only`.
    pub lost_only_excluded: bool,
    /// A promotion type was withheld by `distinct_colour`.
    pub distinct_colour_excluded: bool,
}

/// The variant with what the reference derives from its setup.
pub struct Reference<'a> {
    pub v: &'a Variant,
    files: i32,
    ranks: i32,
    /// `initial[colour][type][rank]`: whether `i` rules apply on that rank.
    initial: Vec<Vec<Vec<bool>>>,
    /// Setup counts per colour and type.
    start: Vec<Vec<usize>>,
    /// Per colour: (king square, [king-side rook square, queen-side rook square]) from the setup.
    castle_homes: [Option<(usize, [Option<usize>; 2])>; 2],
}

fn orient(colour: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    if colour == WHITE {
        (dx, dy)
    } else {
        (dx, -dy)
    }
}

impl<'a> Reference<'a> {
    pub fn new(v: &'a Variant) -> Reference<'a> {
        let files = v.geometry.files as i32;
        let ranks = v.geometry.ranks as i32;
        let mut r = Reference { v, files, ranks, initial: Vec::new(), start: Vec::new(), castle_homes: [None, None] };
        let setup = v.setup.split_whitespace().next().unwrap_or("");
        let cells = r.parse_placement(setup).expect("setup placement");
        let n = v.pieces.len();
        r.initial = vec![vec![vec![false; ranks as usize]; n]; 2];
        r.start = vec![vec![0; n]; 2];
        for (s, cell) in cells.iter().enumerate() {
            if let Some((c, t)) = *cell {
                let rank = r.rank(s) as usize;
                r.initial[c][t][rank] = true;
                r.start[c][t] += 1;
            }
        }
        if let Some(castling) = &v.castling {
            for c in [WHITE, BLACK] {
                let back = if c == WHITE { 0 } else { ranks - 1 };
                let row: Vec<usize> = (0..files).map(|f| r.sq(f, back)).collect();
                let king = row
                    .iter()
                    .copied()
                    .find(|&s| matches!(cells[s], Some((pc, t)) if pc == c && v.pieces[t].moves.castling.is_some()));
                if let Some(king) = king {
                    let is_rook = |s: &usize| matches!(cells[*s], Some((pc, t)) if pc == c && castling.rooks.contains(PieceType::new(t)));
                    let king_side = row.iter().rev().copied().filter(|&s| s > king).find(is_rook);
                    let queen_side = row.iter().copied().filter(|&s| s < king).find(is_rook);
                    r.castle_homes[c] = Some((king, [king_side, queen_side]));
                }
            }
        }
        r
    }

    fn sq(&self, file: i32, rank: i32) -> usize {
        (rank * self.files + file) as usize
    }
    fn file(&self, s: usize) -> i32 {
        s as i32 % self.files
    }
    fn rank(&self, s: usize) -> i32 {
        s as i32 / self.files
    }
    fn at(&self, s: usize, df: i32, dr: i32) -> Option<usize> {
        let (f, r) = (self.file(s) + df, self.rank(s) + dr);
        (f >= 0 && r >= 0 && f < self.files && r < self.ranks).then(|| self.sq(f, r))
    }
    pub fn name(&self, s: usize) -> String {
        format!("{}{}", (b'a' + self.file(s) as u8) as char, self.rank(s) + 1)
    }
    fn parse_square(&self, text: &str) -> Option<usize> {
        let mut cs = text.chars();
        let f = cs.next()? as i32 - 'a' as i32;
        let r: i32 = cs.as_str().parse().ok()?;
        (f >= 0 && f < self.files && r >= 1 && r <= self.ranks).then(|| self.sq(f, r - 1))
    }

    fn parse_placement(&self, text: &str) -> Result<Vec<Option<Piece>>, String> {
        let mut cells = vec![None; (self.files * self.ranks) as usize];
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.ranks as usize {
            return Err(format!("{} ranks in '{text}'", rows.len()));
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = self.ranks - 1 - i as i32;
            let mut file = 0;
            let mut run = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    run = run * 10 + d as i32;
                    continue;
                }
                file += run;
                run = 0;
                let t = self
                    .v
                    .pieces
                    .iter()
                    .position(|p| p.letter == ch.to_ascii_lowercase())
                    .ok_or_else(|| format!("bad letter '{ch}'"))?;
                if file >= self.files {
                    return Err(format!("rank {} too long", rank + 1));
                }
                let colour = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
                let s = self.sq(file, rank);
                cells[s] = Some((colour, t));
                file += 1;
            }
            file += run;
            if file != self.files {
                return Err(format!("rank {} has {file} files", rank + 1));
            }
        }
        Ok(cells)
    }

    pub fn parse_fen(&self, fen: &str) -> Result<Board, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let cells = self.parse_placement(fields.first().ok_or("empty FEN")?)?;
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" => WHITE,
            "b" => BLACK,
            s => return Err(format!("side '{s}'")),
        };
        let mut rights = [false; 4];
        for ch in fields.get(2).copied().unwrap_or("-").chars() {
            match ch {
                'K' => rights[0] = true,
                'Q' => rights[1] = true,
                'k' => rights[2] = true,
                'q' => rights[3] = true,
                '-' => {}
                _ => return Err(format!("castling '{ch}'")),
            }
        }
        // E.p. squares concatenated: a letter, then its rank digits.
        let mut ep = Vec::new();
        let ep_field = fields.get(3).copied().unwrap_or("-");
        if ep_field != "-" {
            let cs: Vec<char> = ep_field.chars().collect();
            let mut i = 0;
            while i < cs.len() {
                let mut j = i + 1;
                while j < cs.len() && cs[j].is_ascii_digit() {
                    j += 1;
                }
                let name: String = cs[i..j].iter().collect();
                ep.push(self.parse_square(&name).ok_or_else(|| format!("e.p. square '{name}'"))?);
                i = j;
            }
        }
        let num = |i: usize, default: u32| -> Result<u32, String> {
            fields.get(i).map_or(Ok(default), |s| s.parse().map_err(|_| format!("'{s}'")))
        };
        num(4, 0)?; // the halfmove clock plays no part in move generation
        Ok(Board { cells, side, rights, ep, fullmove: num(5, 1)?.max(1) })
    }

    pub fn uci(&self, m: &RefMove) -> String {
        let mut s = self.name(m.from) + &self.name(m.to);
        if let Some(t) = m.promo {
            s.push(self.v.pieces[t].letter);
        }
        s
    }

    /// The squares a piece of `colour` on `from` reaches along one oriented step of `rule`, in
    /// order; the last one may be occupied (the first piece met).
    fn ray(&self, b: &Board, from: usize, colour: usize, rule: &MoveRule, step: (i32, i32)) -> Vec<usize> {
        let (dx, dy) = orient(colour, step);
        let mut out = Vec::new();
        let mut prev = from;
        let mut k = 1;
        while let Some(to) = self.at(prev, dx, dy) {
            if rule.lame {
                if let Some(path) = lame_path((dx, dy)) {
                    let blocked =
                        path.iter().any(|&(ox, oy)| self.at(prev, ox, oy).is_none_or(|s| b.cells[s].is_some()));
                    if blocked {
                        break;
                    }
                }
            }
            out.push(to);
            if b.cells[to].is_some() || rule.range == 1 || k == rule.range {
                break;
            }
            prev = to;
            k += 1;
        }
        out
    }

    fn initial_applies(&self, colour: usize, ty: usize, s: usize) -> bool {
        self.initial[colour][ty][self.rank(s) as usize]
    }

    /// Whether a piece of `by` could capture on `target` (standing there as `as_type`, which
    /// matters only for `no_same_capture` attackers).
    pub fn attacked(&self, b: &Board, target: usize, by: usize, as_type: Option<usize>) -> bool {
        for (s, cell) in b.cells.iter().enumerate() {
            let Some((c, t)) = *cell else { continue };
            if c != by {
                continue;
            }
            let p = &self.v.pieces[t];
            if p.no_same_capture && as_type == Some(t) {
                continue;
            }
            for rule in &p.moves.rules {
                if !rule.capture || (rule.initial && !self.initial_applies(c, t, s)) {
                    continue;
                }
                for &step in &rule.steps {
                    if self.ray(b, s, c, rule, step).contains(&target) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// All royal pieces of `colour` are attacked (and it has at least one).
    pub fn in_check(&self, b: &Board, colour: usize) -> bool {
        let mut any = false;
        for (s, cell) in b.cells.iter().enumerate() {
            if let Some((c, t)) = *cell {
                if c == colour && self.v.pieces[t].royal {
                    any = true;
                    if !self.attacked(b, s, 1 - colour, Some(t)) {
                        return false;
                    }
                }
            }
        }
        any
    }

    /// The board after `m` (placement only; enough to test legality).
    pub fn apply(&self, b: &Board, m: &RefMove) -> Board {
        let mut nb = b.clone();
        let piece = nb.cells[m.from].take().expect("a piece on the from square");
        match m.kind {
            Kind::EnPassant { victim } => nb.cells[victim] = None,
            Kind::Castle { rook_from, rook_to } => {
                let rook = nb.cells[rook_from].take();
                nb.cells[rook_to] = rook;
            }
            Kind::Normal => {}
        }
        nb.cells[m.to] = Some(m.promo.map_or(piece, |t| (piece.0, t)));
        nb
    }

    fn is_bare(&self, b: &Board, colour: usize) -> bool {
        !b.cells.iter().flatten().any(|&(c, t)| c == colour && !self.v.pieces[t].royal)
    }

    fn square_colour(&self, s: usize) -> i32 {
        (self.file(s) + self.rank(s)) % 2
    }

    fn in_promotion_zone(&self, colour: usize, s: usize) -> bool {
        self.v.promotion_zone[colour].has(Square::new(s))
    }

    /// Pushes the move, expanded into its promotions where the piece must promote.
    fn push(&self, b: &Board, out: &mut Vec<RefMove>, notes: &mut Notes, m: RefMove, ty: usize) {
        let c = b.side;
        let p = &self.v.pieces[ty];
        if p.promotes_to[c].is_empty() || !self.in_promotion_zone(c, m.to) {
            out.push(m);
            return;
        }
        let mut any = false;
        for promoted in p.promotes_to[c] {
            let pt = promoted.index();
            if self.v.lost_only.contains(promoted) {
                let have = b.cells.iter().filter(|&&x| x == Some((c, pt))).count();
                if have >= self.start[c][pt] {
                    notes.lost_only_excluded = true;
                    continue;
                }
            }
            if self.v.distinct_colour.contains(promoted) {
                let same = b
                    .cells
                    .iter()
                    .enumerate()
                    .any(|(s, &x)| x == Some((c, pt)) && self.square_colour(s) == self.square_colour(m.to));
                if same {
                    notes.distinct_colour_excluded = true;
                    continue;
                }
            }
            any = true;
            out.push(RefMove { promo: Some(pt), ..m });
        }
        if !any {
            notes.promotion_blocked = true;
        }
    }

    /// The square of the piece an e.p. capture removes: one beyond the last target square in
    /// the direction of the side that made the multi-step, if an enemy piece stands there.
    fn ep_victim(&self, b: &Board) -> Option<usize> {
        let them = 1 - b.side;
        let dir = if them == WHITE { 1 } else { -1 };
        let last = b.ep.iter().copied().max_by_key(|&s| self.rank(s) * dir)?;
        let victim = self.at(last, 0, dir)?;
        matches!(b.cells[victim], Some((c, _)) if c == them).then_some(victim)
    }

    fn pseudo_moves(&self, b: &Board, notes: &mut Notes) -> Vec<RefMove> {
        let us = b.side;
        let mut out = Vec::new();
        let ep_victim = self.ep_victim(b);
        for from in 0..b.cells.len() {
            let Some((c, t)) = b.cells[from] else {
                continue;
            };
            if c != us {
                continue;
            }
            let p = &self.v.pieces[t];
            for rule in &p.moves.rules {
                if rule.initial && !self.initial_applies(c, t, from) {
                    continue;
                }
                for &step in &rule.steps {
                    for to in self.ray(b, from, c, rule, step) {
                        let normal = RefMove { from, to, promo: None, kind: Kind::Normal, opening: false };
                        match b.cells[to] {
                            None => {
                                if rule.quiet {
                                    self.push(b, &mut out, notes, normal, t);
                                }
                                if let Some(victim) = ep_victim {
                                    if rule.en_passant && b.ep.contains(&to) {
                                        let m = RefMove { kind: Kind::EnPassant { victim }, ..normal };
                                        self.push(b, &mut out, notes, m, t);
                                    }
                                }
                            }
                            Some((oc, ot)) => {
                                if oc != us && rule.capture && !(p.no_same_capture && ot == t) {
                                    self.push(b, &mut out, notes, normal, t);
                                }
                            }
                        }
                    }
                }
            }
        }
        out.extend(self.castling_moves(b));
        out
    }

    fn castling_moves(&self, b: &Board) -> Vec<RefMove> {
        let mut out = Vec::new();
        let us = b.side;
        let them = 1 - us;
        let (Some(castling), Some((king, rooks))) = (&self.v.castling, self.castle_homes[us]) else {
            return out;
        };
        let Some((kc, kt)) = b.cells[king] else {
            return out;
        };
        if kc != us {
            return out;
        }
        let Some(distance) = self.v.pieces[kt].moves.castling else {
            return out;
        };
        for (side, rook) in rooks.iter().enumerate() {
            let Some(rook) = *rook else { continue };
            if !b.rights[2 * us + side]
                || !matches!(b.cells[rook], Some((c, t)) if c == us && castling.rooks.contains(PieceType::new(t)))
            {
                continue;
            }
            let dir = if rook > king { 1 } else { -1 };
            let Some(king_to) = self.at(king, dir * distance as i32, 0) else {
                continue;
            };
            let rook_to = match castling.rook_moves {
                Some(n) => self.at(rook, -dir * n as i32, 0),
                None => self.at(king_to, -dir, 0),
            };
            let Some(rook_to) = rook_to else { continue };
            let (lo, hi) = (king.min(rook), king.max(rook));
            if (lo + 1..hi).any(|s| b.cells[s].is_some()) {
                continue;
            }
            let free = |s: usize| s == king || s == rook || b.cells[s].is_none();
            if !free(king_to) || !free(rook_to) {
                continue;
            }
            if self.attacked(b, king, them, Some(kt)) {
                continue;
            }
            let mut without_king = b.clone();
            without_king.cells[king] = None;
            let mut s = king;
            let mut safe = true;
            while s != king_to {
                s = (s as i32 + dir) as usize;
                if self.attacked(&without_king, s, them, Some(kt)) {
                    safe = false;
                    break;
                }
            }
            if safe {
                out.push(RefMove {
                    from: king,
                    to: king_to,
                    promo: None,
                    kind: Kind::Castle { rook_from: rook, rook_to },
                    opening: false,
                });
            }
        }
        out
    }

    fn opening_moves(&self, b: &Board) -> Vec<RefMove> {
        let us = b.side;
        let mut out = Vec::new();
        for om in &self.v.opening_moves {
            if om.player_move != b.fullmove {
                continue;
            }
            let (from, to) = (om.from[us].index(), om.to[us].index());
            if b.cells[from] != Some((us, om.piece.index())) || b.cells[to].is_some() {
                continue;
            }
            if let Some((rp, rs)) = om.requires {
                if b.cells[rs[us].index()] != Some((us, rp.index())) {
                    continue;
                }
            }
            out.push(RefMove { from, to, promo: None, kind: Kind::Normal, opening: true });
        }
        out
    }

    /// The position after `m`, with side, rights, e.p. targets and move number updated.
    pub fn play(&self, b: &Board, m: &RefMove) -> Board {
        let us = b.side;
        let (_, ty) = b.cells[m.from].expect("a piece on the from square");
        let captures = b.cells[m.to].is_some() || matches!(m.kind, Kind::EnPassant { .. });
        let mut nb = self.apply(b, m);
        nb.side = 1 - us;
        if us == BLACK {
            nb.fullmove += 1;
        }
        // A right ends when its king or rook leaves its home square or is captured there.
        for c in [WHITE, BLACK] {
            if let Some((king, rooks)) = self.castle_homes[c] {
                for (side, rook) in rooks.iter().enumerate() {
                    let touched = |s: usize| s == king || Some(s) == *rook;
                    if touched(m.from) || Some(m.to) == *rook {
                        nb.rights[2 * c + side] = false;
                    }
                }
            }
        }
        // A multi-step straight forward by a type that captures e.p. leaves every square it
        // passed over as a target.
        nb.ep.clear();
        let e_type = self.v.pieces[ty].moves.rules.iter().any(|r| r.en_passant);
        let (df, dr) = (self.file(m.to) - self.file(m.from), self.rank(m.to) - self.rank(m.from));
        if e_type && m.kind == Kind::Normal && !captures && df == 0 && dr.abs() >= 2 {
            for k in 1..dr.abs() {
                nb.ep.push(self.at(m.from, 0, k * dr.signum()).unwrap());
            }
        }
        nb
    }

    /// Leaf count of legal move sequences of `depth` plies.
    pub fn perft(&self, b: &Board, depth: usize) -> u64 {
        let moves = self.legal_moves(b, &mut Notes::default());
        if depth <= 1 {
            return if depth == 1 { moves.len() as u64 } else { 1 };
        }
        moves.iter().map(|m| self.perft(&self.play(b, m), depth - 1)).sum()
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self, b: &Board, notes: &mut Notes) -> Vec<RefMove> {
        let us = b.side;
        notes.in_check = self.in_check(b, us);
        notes.royal_attacked_not_check = !notes.in_check
            && b.cells.iter().enumerate().any(|(s, &x)| {
                matches!(x, Some((c, t)) if c == us && self.v.pieces[t].royal
                    && self.attacked(b, s, 1 - us, Some(t)))
            });
        let decided = match self.v.rules.bare_king {
            BareKing::None => false,
            // The side to move with a bare king has lost (or drawn, both bare).
            BareKing::Immediate => self.is_bare(b, us),
            // The side that just moved still has a bare king after its reply.
            BareKing::Reply => self.is_bare(b, 1 - us),
        };
        if decided {
            notes.decided = true;
            return Vec::new();
        }
        let legal = |ms: Vec<RefMove>| -> Vec<RefMove> {
            ms.into_iter().filter(|m| !self.in_check(&self.apply(b, m), us)).collect()
        };
        let opening = legal(self.opening_moves(b));
        if self.v.opening_mode == OpeningMode::Forced && !opening.is_empty() {
            return opening;
        }
        let mut moves = legal(self.pseudo_moves(b, notes));
        moves.extend(opening);
        moves
    }
}
