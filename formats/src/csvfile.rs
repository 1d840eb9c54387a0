//! Reading and writing records: the header comes from the record type itself, and a row that
//! does not parse is an error naming file, line and field.

use crate::error::FormatError;
use serde::de::{self, DeserializeOwned, Visitor};
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// The column names of a record type: the field names its `Deserialize` asks for, taken
/// from serde's derive, so that they are written in one place (the struct).
pub fn header<T: DeserializeOwned>() -> &'static [&'static str] {
    struct Fields(Option<&'static [&'static str]>);
    #[derive(Debug)]
    struct Stop;
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("fields read")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Stop
        }
    }
    impl<'de> de::Deserializer<'de> for &mut Fields {
        type Error = Stop;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Stop> {
            self.0 = Some(fields);
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut f = Fields(None);
    let _ = T::deserialize(&mut f);
    f.0.expect("a record type is a struct")
}

/// Message of a csv error, with the field's number where csv knows it.
fn message(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field() {
            Some(f) => format!("field {}: {}", f + 1, err.kind()),
            None => err.kind().to_string(),
        },
        _ => e.to_string(),
    }
}

/// The rows of a CSV file of `T` records, each with its line number; a row that does not
/// parse is an error naming file, line and field, and reading goes on after it. Columns are
/// found by name, so files with columns added later still read.
pub struct Rows<T> {
    path: String,
    present: csv::StringRecord,
    inner: csv::DeserializeRecordsIntoIter<std::io::BufReader<std::fs::File>, T>,
    line: u64,
}

impl<T: DeserializeOwned> Rows<T> {
    pub fn open(path: &Path) -> Result<Rows<T>, FormatError> {
        Rows::open_renamed(path, &[])
    }

    /// For a file whose older versions named some columns otherwise: `(old, new)`.
    pub fn open_renamed(path: &Path, renames: &[(&str, &str)]) -> Result<Rows<T>, FormatError> {
        let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, "read", e))?;
        let mut rdr = csv::ReaderBuilder::new().flexible(true).from_reader(std::io::BufReader::new(file));
        let err = |e: csv::Error| FormatError::Row { path: path.display().to_string(), line: 1, message: message(&e) };
        let present: csv::StringRecord = rdr
            .headers()
            .map_err(err)?
            .iter()
            .map(|h| renames.iter().find(|(old, _)| *old == h).map_or(h, |(_, new)| *new))
            .collect();
        rdr.set_headers(present.clone());
        Ok(Rows { path: path.display().to_string(), present, inner: rdr.into_deserialize(), line: 1 })
    }

    /// An error unless the header has every one of `columns`.
    pub fn require(&self, columns: &[&str]) -> Result<(), FormatError> {
        match columns.iter().find(|c| !self.present.iter().any(|p| p == **c)) {
            Some(c) => Err(FormatError::Header {
                path: self.path.clone(),
                line: 1,
                column: c.to_string(),
                expected: header::<T>().join(","),
            }),
            None => Ok(()),
        }
    }
}

impl<T: DeserializeOwned> Iterator for Rows<T> {
    type Item = (u64, Result<T, FormatError>);

    fn next(&mut self) -> Option<Self::Item> {
        let r = self.inner.next()?;
        self.line += 1;
        let row = r.map_err(|e| {
            let message = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } if err.field().is_none() => {
                    // A missing column: name it.
                    match header::<T>().iter().find(|h| !self.present.iter().any(|p| p == **h)) {
                        Some(w) => format!(
                            "no '{w}' column (the header has {})",
                            self.present.iter().collect::<Vec<_>>().join(",")
                        ),
                        None => message(&e),
                    }
                }
                _ => message(&e),
            };
            FormatError::Row { path: self.path.clone(), line: self.line, message }
        });
        Some((self.line, row))
    }
}

/// Calls `f(line, row)` for every row, in order; the first bad row is the error.
pub fn for_each<T: DeserializeOwned>(
    path: &Path,
    mut f: impl FnMut(u64, T) -> Result<(), FormatError>,
) -> Result<(), FormatError> {
    for (line, row) in Rows::open(path)? {
        f(line, row?)?;
    }
    Ok(())
}

/// Every row of a CSV file of `T` records.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, FormatError> {
    let mut rows = Vec::new();
    for_each(path, |_, r| {
        rows.push(r);
        Ok(())
    })?;
    Ok(rows)
}

/// Writes a whole CSV file of `T` records, header first.
pub fn write<T: Serialize + DeserializeOwned>(path: &Path, rows: &[T]) -> Result<(), FormatError> {
    let mut w =
        Appender::<_, T>::new(std::fs::File::create(path).map_err(|e| FormatError::io(path, "write", e))?, path);
    w.header()?;
    for r in rows {
        w.push(r)?;
    }
    w.flush()
}

/// Rows of `T` written to a stream as they come (a run's games, appended across resumes).
pub struct Appender<W: Write, T> {
    inner: csv::Writer<W>,
    path: String,
    rows: std::marker::PhantomData<T>,
}

impl<W: Write, T: Serialize + DeserializeOwned> Appender<W, T> {
    pub fn new(w: W, path: &Path) -> Self {
        let inner = csv::WriterBuilder::new().has_headers(false).from_writer(w);
        Appender { inner, path: path.display().to_string(), rows: std::marker::PhantomData }
    }
    fn err(&self, e: impl std::fmt::Display) -> FormatError {
        FormatError::Io { path: self.path.clone(), action: "write", message: e.to_string() }
    }
    pub fn header(&mut self) -> Result<(), FormatError> {
        self.inner.write_record(header::<T>()).map_err(|e| self.err(e))
    }
    pub fn push(&mut self, row: &T) -> Result<(), FormatError> {
        self.inner.serialize(row).map_err(|e| self.err(e))
    }
    pub fn flush(&mut self) -> Result<(), FormatError> {
        self.inner.flush().map_err(|e| self.err(e))
    }
}
