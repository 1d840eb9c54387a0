//! Where in a TOML file: the helpers every reader of a TOML file (variant, weights,
//! parameters, engines, balance and run files) uses to name the file and line of an error.

/// Line number (1-based) of a byte offset.
pub fn line_of(src: &str, offset: usize) -> usize {
    src[..offset.min(src.len())].bytes().filter(|&b| b == b'\n').count() + 1
}

/// Where a TOML error is: `file:line`, or the file alone when toml gives no place.
pub fn toml_at(file: &str, src: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(s) => format!("{file}:{}", line_of(src, s.start)),
        None => file.to_string(),
    }
}
