//! Opening books. A run reads one position per line (FEN, with or without move counters, or
//! EPD with its `;` operations) or the end positions of PGN games; `hoplite book` makes one of
//! openings played among near-best moves, or of random openings a search scores near equality.

mod make;
mod read;

pub use make::{epd_text, make_book, pgn_book, played_book, Book, BookLine, BookSettings};
pub use read::{book_order, epd_to_fen, read_book, BookEntry};
