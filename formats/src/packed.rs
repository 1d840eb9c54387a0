//! Training positions for a network, packed (`positions.bin`): millions of them in a few hundred
//! MB, where CSV would take gigabytes. A header names the variant (the network layout's
//! fingerprint, its board and piece count), then one record per position, each
//! self-delimiting, so that shards of one run join by concatenating their records:
//!
//! | bytes | what |
//! |---|---|
//! | 8 + 4 + 8 | `HOPLDATA`, format version (1), the layout's fingerprint |
//! | 2 + 2 + 2 | files, ranks, piece types |
//!
//! and per record: the number of pieces `n` (1 byte); the occupied squares as a bitmap of
//! ⌈squares / 8⌉ bytes (square 0 in the lowest bit of the first); the `n` pieces in square
//! order, one byte each (colour · 16 + type); in a variant with drops, the pieces in hand (a
//! byte per type, White's types then Black's); the side to move (0 White, 1 Black); the
//! search's score in centipawns from White's view (`i16`); the game's result from White's
//! view (0 loss, 1 draw, 2 win). A chess position takes 45 bytes, a crazyhouse one 12 more.

use crate::error::FormatError;
use hoplite_core::{Bits, Colour, GameResult, PieceType, Position, Square, Variant, MAX_TYPES};
use hoplite_search::eval::network::Layout;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"HOPLDATA";
const VERSION: u32 = 1;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 26;

/// One training position: the pieces, the side to move, the search's score and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedPosition {
    /// (colour, type, square), in square order.
    pub pieces: Vec<(Colour, PieceType, Square)>,
    /// The pieces in hand per colour and type (all 0 without drops).
    pub hand: [[u8; MAX_TYPES]; 2],
    pub side: Colour,
    /// Centipawns from White's view.
    pub score: i16,
    /// The game's result from White's view: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

impl PackedPosition {
    /// `pos` scored `score` (centipawns from White's view, clamped to an `i16`) in a game that
    /// ended `result`.
    pub fn new<B: Bits>(pos: &Position<B>, score: i32, result: GameResult) -> PackedPosition {
        let pieces = pos
            .men()
            .into_iter()
            .map(|sq| {
                let (c, t) = pos.piece_at(sq).expect("an occupied square holds a piece");
                (c, t, sq)
            })
            .collect();
        let result = match result {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        };
        let score = score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        let hand = Colour::BOTH.map(|c| std::array::from_fn(|t| pos.in_hand(c, PieceType::new(t))));
        PackedPosition { pieces, hand, side: pos.side_to_move(), score, result }
    }

    /// The result as White's score: 0, ½ or 1.
    pub fn white_score(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// The header of a file of packed positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    fingerprint: u64,
    files: u16,
    ranks: u16,
    types: u16,
}

impl Header {
    fn of(layout: &Layout) -> Header {
        Header {
            fingerprint: layout.fingerprint,
            files: layout.files as u16,
            ranks: layout.ranks as u16,
            types: layout.types as u16,
        }
    }

    fn bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[..8].copy_from_slice(MAGIC);
        b[8..12].copy_from_slice(&VERSION.to_le_bytes());
        b[12..20].copy_from_slice(&self.fingerprint.to_le_bytes());
        for (i, n) in [self.files, self.ranks, self.types].into_iter().enumerate() {
            b[20 + 2 * i..22 + 2 * i].copy_from_slice(&n.to_le_bytes());
        }
        b
    }
}

/// What a record of one variant holds besides its pieces: the board's squares, the piece
/// types, and whether hands follow the pieces.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub squares: usize,
    pub types: usize,
    pub hands: bool,
}

impl Shape {
    pub fn of(layout: &Layout) -> Shape {
        Shape { squares: layout.files * layout.ranks, types: layout.types, hands: layout.hand > 0 }
    }
}

/// Writes packed positions of one variant.
pub struct PackedWriter<W: Write> {
    out: W,
    shape: Shape,
}

impl PackedWriter<BufWriter<std::fs::File>> {
    /// A new file at `path` for `variant` (its header written).
    pub fn create(path: &Path, variant: &Variant) -> Result<Self, FormatError> {
        let file = std::fs::File::create(path).map_err(|e| FormatError::io(path, "create", e))?;
        PackedWriter::new(BufWriter::new(file), variant).map_err(|e| FormatError::io(path, "write", e))
    }
}

/// The header of a file of `variant`'s packed positions.
pub fn header(variant: &Variant) -> [u8; HEADER_LEN] {
    Header::of(&Layout::of(variant)).bytes()
}

impl<W: Write> PackedWriter<W> {
    /// A writer to `out`, the header written first.
    pub fn new(mut out: W, variant: &Variant) -> std::io::Result<Self> {
        out.write_all(&header(variant))?;
        Ok(PackedWriter::append(out, variant))
    }

    /// A writer that adds records to `out`, which holds `variant`'s header already (a
    /// resumed run's file).
    pub fn append(out: W, variant: &Variant) -> Self {
        PackedWriter { out, shape: Shape::of(&Layout::of(variant)) }
    }

    /// Writes one record; returns its length in bytes.
    pub fn write(&mut self, p: &PackedPosition) -> std::io::Result<usize> {
        let record = encode(p, self.shape);
        self.out.write_all(&record)?;
        Ok(record.len())
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One record's bytes.
pub fn encode(p: &PackedPosition, shape: Shape) -> Vec<u8> {
    let squares = shape.squares;
    let mut b = Vec::with_capacity(8 + squares.div_ceil(8) + p.pieces.len());
    b.push(p.pieces.len() as u8);
    let mut bitmap = vec![0u8; squares.div_ceil(8)];
    for &(_, _, sq) in &p.pieces {
        bitmap[sq.index() / 8] |= 1 << (sq.index() % 8);
    }
    b.extend_from_slice(&bitmap);
    b.extend(p.pieces.iter().map(|&(c, t, _)| (c.index() * MAX_TYPES + t.index()) as u8));
    if shape.hands {
        b.extend(p.hand.iter().flat_map(|h| &h[..shape.types]));
    }
    b.push(p.side.index() as u8);
    b.extend_from_slice(&p.score.to_le_bytes());
    b.push(p.result);
    b
}

/// Reads the packed positions of a file made for `variant`, refusing another variant's.
pub fn read(path: &Path, variant: &Variant) -> Result<Vec<PackedPosition>, FormatError> {
    let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, "open", e))?;
    let mut bytes = Vec::new();
    BufReader::new(file).read_to_end(&mut bytes).map_err(|e| FormatError::io(path, "read", e))?;
    decode_all(&bytes, variant).map_err(|message| FormatError::Row {
        path: path.display().to_string(),
        line: 0,
        message,
    })
}

/// The records of a whole file's bytes; an error says at which byte and why.
pub fn decode_all(bytes: &[u8], variant: &Variant) -> Result<Vec<PackedPosition>, String> {
    let layout = Layout::of(variant);
    let want = Header::of(&layout);
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err("not a file of packed positions (it does not begin with HOPLDATA)".into());
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(format!("packed positions of format version {version}; this hoplite reads {VERSION}"));
    }
    if bytes[..HEADER_LEN] != want.bytes() {
        return Err(format!("positions of another variant than {} ({})", variant.name, layout.describe()));
    }
    let shape = Shape::of(&layout);
    let mut out = Vec::new();
    let mut at = HEADER_LEN;
    while at < bytes.len() {
        let (p, len) = decode(&bytes[at..], shape).map_err(|e| format!("byte {at}: {e}"))?;
        out.push(p);
        at += len;
    }
    Ok(out)
}

/// One record from the start of `b`, and its length.
pub fn decode(b: &[u8], shape: Shape) -> Result<(PackedPosition, usize), String> {
    let Shape { squares, types, hands } = shape;
    let n = *b.first().ok_or("no record")? as usize;
    let map = squares.div_ceil(8);
    let held = if hands { 2 * types } else { 0 };
    let len = 1 + map + n + held + 4;
    let b = b.get(..len).ok_or_else(|| format!("a record of {len} bytes cut short"))?;
    let occupied: Vec<Square> = (0..squares).filter(|&i| b[1 + i / 8] >> (i % 8) & 1 != 0).map(Square::new).collect();
    if occupied.len() != n {
        return Err(format!("{n} pieces but {} occupied squares", occupied.len()));
    }
    let mut pieces = Vec::with_capacity(n);
    for (&code, &sq) in b[1 + map..1 + map + n].iter().zip(&occupied) {
        let (c, t) = (code as usize / MAX_TYPES, code as usize % MAX_TYPES);
        if c > 1 || t >= types {
            return Err(format!("piece code {code} is no piece of the variant"));
        }
        pieces.push((Colour::from_index(c), PieceType::new(t), sq));
    }
    let mut hand = [[0u8; MAX_TYPES]; 2];
    for (i, &count) in b[1 + map + n..1 + map + n + held].iter().enumerate() {
        hand[i / types][i % types] = count;
    }
    let tail = &b[1 + map + n + held..];
    let side = match tail[0] {
        0 => Colour::White,
        1 => Colour::Black,
        s => return Err(format!("side to move {s}")),
    };
    let score = i16::from_le_bytes([tail[1], tail[2]]);
    if tail[3] > 2 {
        return Err(format!("result {}", tail[3]));
    }
    Ok((PackedPosition { pieces, hand, side, score, result: tail[3] }, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_positions_round_trip_and_refuse_another_variant() {
        let chess = Variant::builtin("chess");
        let mut pos = Position::startpos(&chess);
        let mut records = vec![PackedPosition::new(&pos, 35, GameResult::WhiteWins)];
        for m in ["e2e4", "d7d5", "e4d5"] {
            pos.make(pos.parse_uci(m).unwrap());
            records.push(PackedPosition::new(&pos, -120, GameResult::Draw));
        }
        let mut w = PackedWriter::new(Vec::new(), &chess).unwrap();
        for r in &records {
            w.write(r).unwrap();
        }
        let bytes = w.finish().unwrap();
        assert_eq!(bytes.len(), HEADER_LEN + 45 + 45 + 45 + 44);
        assert_eq!(decode_all(&bytes, &chess).unwrap(), records);
        let e = decode_all(&bytes, &Variant::builtin("shatranj")).unwrap_err();
        assert!(e.starts_with("positions of another variant than shatranj"), "{e}");
        let e = decode_all(&bytes[..bytes.len() - 2], &chess).unwrap_err();
        assert!(e.contains("cut short"), "{e}");
    }

    #[test]
    fn packed_positions_keep_the_hands_of_a_variant_with_drops() {
        let zh = Variant::builtin("crazyhouse");
        let pos = Position::from_fen(&zh, "r3k3/8/8/8/8/8/8/4K3[QPPnp] w - - 0 1").unwrap();
        let record = PackedPosition::new(&pos, 250, GameResult::BlackWins);
        assert_eq!(record.hand[0][..6], [2, 0, 0, 0, 1, 0], "pawns and a queen for White");
        let mut w = PackedWriter::new(Vec::new(), &zh).unwrap();
        w.write(&record).unwrap();
        let bytes = w.finish().unwrap();
        assert_eq!(bytes.len(), HEADER_LEN + 1 + 8 + 3 + 12 + 4, "a byte per colour and type in hand");
        assert_eq!(decode_all(&bytes, &zh).unwrap(), vec![record]);
        // Chess's pieces, but another game: crazyhouse's positions are not chess's.
        assert!(decode_all(&bytes, &Variant::builtin("chess")).is_err());
    }
}
