//! Terminal colour for the insight views: ANSI escapes when enabled, plain text otherwise.

/// How a piece of text is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    /// No escape.
    #[default]
    Plain,
    /// A problem (bank conflicts, uncoalesced access, races, failed gates).
    Red,
    /// Worth a look (divergence, hints).
    Yellow,
    /// Good (the best sweep row, passed gates).
    Green,
    /// Less important (line numbers without work).
    Dim,
    /// Headings.
    Bold,
}

/// Whether to colour. Decided once from `--color` and `NO_COLOR` by the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paint {
    /// Emit ANSI escapes.
    pub on: bool,
}

impl Paint {
    /// `text` in `tone`.
    pub fn tone(self, text: &str, tone: Tone) -> String {
        let code = match tone {
            Tone::Plain => return text.to_string(),
            Tone::Red => "31",
            Tone::Yellow => "33",
            Tone::Green => "32",
            Tone::Dim => "2",
            Tone::Bold => "1",
        };
        if self.on && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `text` right-aligned in `width` columns, then coloured (so escapes never upset alignment).
    pub fn cell(self, text: &str, width: usize, tone: Tone) -> String {
        let padded = format!("{text:>width$}");
        if text.is_empty() {
            padded
        } else {
            self.tone(&padded, tone)
        }
    }

    /// Bold.
    pub fn bold(self, text: &str) -> String {
        self.tone(text, Tone::Bold)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_only_when_on_and_after_padding() {
        let off = Paint { on: false };
        let on = Paint { on: true };
        assert_eq!(off.cell("7", 3, Tone::Red), "  7");
        assert_eq!(on.cell("7", 3, Tone::Red), "\x1b[31m  7\x1b[0m");
        assert_eq!(on.cell("7", 3, Tone::Plain), "  7");
        assert_eq!(on.cell("", 2, Tone::Red), "  ");
        assert_eq!(on.bold(""), "");
    }
}
