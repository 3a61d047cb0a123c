//! Source files and byte spans: what every diagnostic points into.

use std::sync::{Arc, OnceLock};

/// A source file's or header's text. nvcc reads bytes, and a comment or a string literal may
/// hold any (ccminer's German comments are ISO-8859-1): a file that is not UTF-8 is read as
/// ISO-8859-1, each byte the character of its value, so that its comments are shown as written.
/// A byte of 0x80 or more outside a comment or a literal is then a syntax error at its line and
/// column. A UTF-8 byte-order mark before the first line (every NVEnc source has one) is not
/// text. A carriage return not followed by a line feed (an old Mac line end, as in gnina's
/// curl.h) ends its line, as it does for GCC's preprocessor, which nvcc runs: it becomes a line
/// feed, so every byte keeps its place.
pub fn decode(mut bytes: Vec<u8>) -> String {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    for k in 0..bytes.len() {
        if bytes[k] == b'\r' && bytes.get(k + 1) != Some(&b'\n') {
            bytes[k] = b'\n';
        }
    }
    String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().into_iter().map(char::from).collect())
}

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
    /// Where each line starts, computed once when a line is first asked for.
    lines: Arc<LineTable>,
}

/// The byte offsets at which the lines of a text start: line lookups in logarithmic time, so
/// that reports and diagnostics stay linear in the size of the file.
#[derive(Debug, Default)]
struct LineTable(OnceLock<Vec<usize>>);

impl LineTable {
    fn starts(&self, text: &str) -> &[usize] {
        self.0.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// 1-based line of a byte offset (past the end: the last line).
    fn line(&self, text: &str, offset: usize) -> usize {
        self.starts(text)
            .partition_point(|&s| s <= offset.min(text.len()))
    }

    /// The text of a 1-based line, without its line end.
    fn text<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let starts = self.starts(text);
        let Some(&start) = starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = starts.get(line).map_or(text.len(), |&e| e - 1);
        text[start..end]
            .strip_suffix('\r')
            .unwrap_or(&text[start..end])
    }
}

impl SourceFile {
    /// A source with a display name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: Arc::new(text.into()),
            lines: Arc::default(),
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
        self.lines.line(&self.text, offset as usize)
    }

    /// The trimmed text of a 1-based line.
    pub fn line_text(&self, line: usize) -> &str {
        self.lines.text(&self.text, line).trim()
    }

    /// A miette source for rendering.
    pub fn named_source(&self) -> ShownSource {
        ShownSource {
            inner: miette::NamedSource::new(self.name.clone(), self.text.clone()),
            text: self.text.clone(),
            lines: self.lines.clone(),
        }
    }
}

/// Lines longer than this are shown as a window around the span, not whole.
const LONG_LINE: usize = 1000;

/// Bytes of a long line shown on each side of a span.
const WINDOW: usize = 100;

/// The source a diagnostic shows: the file, except that a very long line (minified or generated
/// code) is cut to a window around the span. miette pads labels with a formatting width of the
/// column, which panics past 65535.
#[derive(Debug)]
pub struct ShownSource {
    inner: miette::NamedSource<Arc<String>>,
    text: Arc<String>,
    lines: Arc<LineTable>,
}

impl ShownSource {
    /// The file name.
    pub fn name(&self) -> &str {
        self.inner.name()
    }

    /// 1-based line and column (in characters) of a byte offset, in logarithmic time.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.lines.line(&self.text, offset);
        let start = self.lines.starts(&self.text)[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(0, |t| t.chars().count());
        (line, column + 1)
    }
}

impl miette::SourceCode for ShownSource {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let text = self.text.as_str();
        let start = span.offset();
        let end = start + span.len();
        // Header positions (no context) are plain numbers; only context lines get drawn.
        if (before == 0 && after == 0) || end > text.len() || !text.is_char_boundary(start) {
            return self.inner.read_span(span, before, after);
        }
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        if line_end - line_start <= LONG_LINE {
            return self.inner.read_span(span, before, after);
        }
        let mut from = start.saturating_sub(WINDOW).max(line_start);
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (end.clamp(start + 1, start + 2 * WINDOW) + WINDOW).min(line_end);
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let line = text[..start].matches('\n').count();
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.inner.name().to_string(),
            &text.as_bytes()[from..to],
            (from, to - from).into(),
            line,
            from - line_start,
            1,
        )))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_carriage_return_ends_its_line() {
        // gnina's curl.h: `// comment\r` then code on what GCC reads as the next line; a
        // `\r\n` stays as it is.
        let text = decode(b"// note\rint f();\r\nint g();\r".to_vec());
        assert_eq!(text, "// note\nint f();\r\nint g();\n");
    }

    #[test]
    fn lines_are_found_by_their_starts() {
        // Lines start at bytes 0, 4 ("ab\r\n" is 4 bytes), 5 and 11; "é" is 2 bytes.
        let src = SourceFile::new("t.sk", "ab\r\n\n  éx y\nlast");
        assert_eq!(src.line_of(0), 1);
        assert_eq!(src.line_of(3), 1);
        assert_eq!(src.line_of(4), 2);
        assert_eq!(src.line_of(5), 3);
        assert_eq!(src.line_of(13), 4);
        assert_eq!(src.line_of(99), 4);
        assert_eq!(src.line_text(1), "ab");
        assert_eq!(src.line_text(2), "");
        assert_eq!(src.line_text(3), "éx y");
        assert_eq!(src.line_text(4), "last");
        assert_eq!(src.line_text(0), "");
        assert_eq!(src.line_text(5), "");
        // Columns count characters: `x` is the 4th character of line 3 (byte 9).
        let shown = src.named_source();
        assert_eq!(shown.line_col(9), (3, 4));
        assert_eq!(shown.line_col(0), (1, 1));
    }
}
