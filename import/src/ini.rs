//! Reading Fairy-Stockfish's variants.ini: sections `[name]` or `[name:parent]`, `key = value`
//! lines, `#` and `;` comments. Every key keeps its line so that a refusal can name it.

use std::collections::BTreeMap;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    pub line: usize,
}

/// One section, its keys as FSF keeps them: a later duplicate replaces the earlier one.
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    pub line: usize,
    pub keys: BTreeMap<String, Entry>,
}

/// Bad syntax: the line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IniError {
    pub line: usize,
    pub message: String,
}

/// Parses the text of an ini file. Lines before the first section are ignored, as FSF does.
/// FSF silently skips a line without `=`; that is reported here instead, since such a line in a
/// file written for hoplite is a mistake rather than a rule.
pub fn parse(text: &str) -> Result<Vec<Section>, IniError> {
    let mut sections: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim_end_matches('\r');
        let content = trimmed.trim();
        if content.is_empty() || content.starts_with('#') || content.starts_with(';') {
            continue;
        }
        // FSF starts a section only at a '[' in the first column.
        if trimmed.starts_with('[') {
            let Some(end) = trimmed.find(']') else {
                return Err(IniError { line, message: format!("section header '{content}' has no ']'") });
            };
            let header = &trimmed[1..end];
            let (name, parent) = match header.split_once(':') {
                Some((n, p)) => (n, Some(p.to_string())),
                None => (header, None),
            };
            if name.is_empty() {
                return Err(IniError { line, message: "section without a name".into() });
            }
            sections.push(Section { name: name.into(), parent, line, keys: BTreeMap::new() });
            continue;
        }
        let Some(section) = sections.last_mut() else {
            continue;
        };
        // FSF tests for a comment before skipping blanks, so only a first-column '#' or ';' is one.
        if trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let Some((key, value)) = trimmed.split_once('=') else {
            return Err(IniError { line, message: format!("'{content}' is not 'key = value'") });
        };
        let key = key.trim_end_matches(' ');
        if key.is_empty() {
            return Err(IniError { line, message: format!("'{content}' has no key") });
        }
        let value = value.trim_start();
        section.keys.insert(key.to_string(), Entry { value: value.to_string(), line });
    }
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keys_comments_and_lines() {
        let text = "# header\n\n[a]\nmaxRank = 10\n; comment\n# another\n\n[b:a]\nkey=v w \nkey = later\n";
        let s = parse(text).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].name.as_str(), s[0].parent.as_deref(), s[0].line), ("a", None, 3));
        assert_eq!(s[0].keys["maxRank"], Entry { value: "10".into(), line: 4 });
        assert_eq!(s[1].parent.as_deref(), Some("a"));
        // A later duplicate wins, and keeps its own line.
        assert_eq!(s[1].keys["key"], Entry { value: "later".into(), line: 10 });
    }

    #[test]
    fn value_keeps_inner_and_trailing_text() {
        let s = parse("[x]\nstartFen = 8/8 w - - 0 1 \n").unwrap();
        assert_eq!(s[0].keys["startFen"].value, "8/8 w - - 0 1 ");
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(parse("[x]\nfoo\n").unwrap_err().line, 2);
        assert_eq!(parse("[x\n").unwrap_err().line, 1);
        assert_eq!(parse("[x]\n = 3\n").unwrap_err().line, 2);
    }
}
