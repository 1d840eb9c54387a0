//! Where in a TOML file: the helpers every reader of a TOML file (variant, weights,
//! parameters, engines, balance and run files) uses to name the file and line of an error.

/// Line number (1-based) of a byte offset.
pub fn line_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The line of any offset in one text, each found in logarithmic time: for readers that name
/// the line of every value of a long file (`line_of` for each would be quadratic).
pub struct Lines {
    /// The offset of each line's end.
    ends: Vec<usize>,
}

impl Lines {
    pub fn new(src: &str) -> Lines {
        Lines { ends: src.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i).collect() }
    }

    /// Line number (1-based) of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.ends.partition_point(|&end| end < offset) + 1
    }
}

/// Where a TOML error is: `file:line`, or the file alone when toml gives no place.
pub fn toml_at(file: &str, src: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(s) => format!("{file}:{}", line_of(src, s.start)),
        None => file.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_agree_with_line_of() {
        let src = "a = 1\n\n[b]\nc = 2\nlast";
        let lines = Lines::new(src);
        for offset in 0..=src.len() + 3 {
            assert_eq!(lines.line_of(offset), line_of(src, offset), "{offset}");
        }
    }
}
