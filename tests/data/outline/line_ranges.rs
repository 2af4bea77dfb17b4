//! Line ranges over a text, the model of `sutra read`, written in Rust for the outline tests.
//! Real code with the shapes an outline meets: a module, structs, an enum, traits, generic
//! impls, a macro, constants and tests.

use std::fmt;
use std::str::FromStr;

pub const MAX_RANGES: usize = 64;
static SEPARATOR: char = ',';

/// One-based, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineRange {
    pub first: usize,
    pub last: usize,
}

/// Why a range does not parse.
#[derive(Debug, PartialEq, Eq)]
pub enum RangeError {
    Empty,
    NotANumber(String),
    Backwards { first: usize, last: usize },
    PastEnd { last: usize, lines: usize },
}

pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

pub trait Slicer {
    fn slice(&self, range: LineRange) -> Result<&str, RangeError>;
    fn line_count(&self) -> usize;
}

macro_rules! bail {
    ($e:expr) => {
        return Err($e)
    };
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::Empty => write!(f, "no range"),
            RangeError::NotANumber(s) => write!(f, "'{}' is not a line number", s),
            RangeError::Backwards { first, last } => {
                write!(f, "range {}-{} ends before it starts", first, last)
            }
            RangeError::PastEnd { last, lines } => {
                write!(f, "line {} is past the end ({} lines)", last, lines)
            }
        }
    }
}

impl FromStr for LineRange {
    type Err = RangeError;

    fn from_str(part: &str) -> Result<Self, Self::Err> {
        let number = |s: &str| -> Result<usize, RangeError> {
            s.trim().parse::<usize>().map_err(|_| RangeError::NotANumber(s.to_string()))
        };
        let (first, last) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(part)?;
                (n, n)
            }
        };
        if first == 0 || last < first {
            bail!(RangeError::Backwards { first, last });
        }
        Ok(LineRange { first, last })
    }
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' && i + 1 < text.len() {
                starts.push(i + 1);
            }
        }
        LineIndex { text, starts }
    }

    fn end_of(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.text.len())
    }
}

impl<'a> Slicer for LineIndex<'a> {
    fn slice(&self, range: LineRange) -> Result<&str, RangeError> {
        if self.text.is_empty() || range.last > self.line_count() {
            bail!(RangeError::PastEnd { last: range.last, lines: self.line_count() });
        }
        Ok(&self.text[self.starts[range.first - 1]..self.end_of(range.last)])
    }

    fn line_count(&self) -> usize {
        if self.text.is_empty() { 0 } else { self.starts.len() }
    }
}

pub fn parse_ranges(spec: &str) -> Result<Vec<LineRange>, RangeError> {
    if spec.is_empty() {
        return Err(RangeError::Empty);
    }
    spec.split(SEPARATOR).take(MAX_RANGES).map(str::parse).collect()
}

pub mod render {
    use super::{LineRange, Slicer};

    pub fn concat<S: Slicer>(slicer: &S, ranges: &[LineRange]) -> String {
        ranges.iter().filter_map(|r| slicer.slice(*r).ok()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_exact_bytes() {
        let index = LineIndex::new("a\nb\nc");
        assert_eq!(index.slice(LineRange { first: 2, last: 3 }).unwrap(), "b\nc");
    }

    #[test]
    fn refuses_backwards() {
        assert!("3-1".parse::<LineRange>().is_err());
    }
}
