//! Source files and byte spans: what every diagnostic points into.

use std::sync::Arc;

/// A byte range in one `.sk` file. Cheap to copy; converted to miette's `SourceSpan` when rendering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> Self {
        (s.start as usize..s.end as usize).into()
    }
}

/// One `.sk` file (or a command-line argument treated as source).
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: String,
    text: Arc<String>,
}

impl SourceFile {
    /// A source with a display name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: Arc::new(text.into()),
        }
    }

    /// The name shown in diagnostics.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text of a span.
    pub fn slice(&self, span: Span) -> &str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// 1-based line number of a byte offset.
    pub fn line_of(&self, offset: u32) -> usize {
        let end = (offset as usize).min(self.text.len());
        self.text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    /// The trimmed text of a 1-based line.
    pub fn line_text(&self, line: usize) -> &str {
        self.text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .trim()
    }

    /// A miette source for rendering.
    pub fn named_source(&self) -> miette::NamedSource<Arc<String>> {
        miette::NamedSource::new(self.name.clone(), self.text.clone())
    }
}

/// A value with the span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}
