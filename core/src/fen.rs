//! FEN placement field: ranks from the top, `/`-separated, multi-digit empty runs.

use crate::geometry::Geometry;

/// A piece on a square: (square, colour 0 = White, lower-case letter).
pub type Placed = (usize, usize, char);

/// Reads a placement field; `letters` are the variant's lower-case piece letters.
pub fn parse_placement(geo: &Geometry, letters: &[char], text: &str) -> Result<Vec<Placed>, String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks {
        return Err(format!("placement '{text}' has {} ranks, expected {}", rows.len(), geo.ranks));
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks - 1 - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap() as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                    if n > 16 {
                        break;
                    }
                }
                if n == 0 {
                    return Err(format!("rank {} ('{row}'): empty run of 0 squares", rank + 1));
                }
                file += n;
            } else if c.is_ascii_alphabetic() && letters.contains(&c.to_ascii_lowercase()) {
                if file < geo.files {
                    out.push((geo.square(file, rank), usize::from(c.is_ascii_lowercase()), c.to_ascii_lowercase()));
                }
                file += 1;
            } else {
                return Err(format!(
                    "rank {} ('{row}'): '{c}' is not a piece letter of this variant (letters: {})",
                    rank + 1,
                    letters.iter().collect::<String>()
                ));
            }
            if file > geo.files {
                break;
            }
        }
        if file != geo.files {
            return Err(format!("rank {} ('{row}') has {file} squares, expected {}", rank + 1, geo.files));
        }
    }
    Ok(out)
}
