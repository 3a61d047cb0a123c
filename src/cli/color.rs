//! `--color auto|always|never`, honouring `NO_COLOR` (no-color.org) in `auto`.

use clap::ValueEnum;

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when the stream is a terminal and `NO_COLOR` is unset or empty.
    Auto,
    /// Always colour (an explicit flag overrides `NO_COLOR`).
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour a stream that is (`is_terminal`) or is not a terminal.
    pub fn enabled(self, is_terminal: bool) -> bool {
        self.decide(is_terminal, std::env::var_os("NO_COLOR"))
    }

    fn decide(self, is_terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_needs_a_terminal_and_no_no_color() {
        let set = || Some(std::ffi::OsString::from("1"));
        assert!(ColorChoice::Auto.decide(true, None));
        assert!(!ColorChoice::Auto.decide(false, None));
        assert!(!ColorChoice::Auto.decide(true, set()));
        // An empty NO_COLOR does not count (no-color.org).
        assert!(ColorChoice::Auto.decide(true, Some("".into())));
        assert!(ColorChoice::Always.decide(false, set()));
        assert!(!ColorChoice::Never.decide(true, None));
    }
}
