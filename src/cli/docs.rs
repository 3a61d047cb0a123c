//! `simt completions SHELL` and `simt man`: generated from the same clap definitions as the parser.

use std::path::PathBuf;

use clap::CommandFactory;

use super::{emit, Cli};
use crate::pipeline::Failure;

/// Prints the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Result<u8, Failure> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "simt", &mut out);
    emit(&String::from_utf8_lossy(&out));
    Ok(0)
}

/// Prints `simt.1`, or writes a page per subcommand into `dir`.
pub fn man(dir: Option<PathBuf>) -> Result<u8, Failure> {
    let cmd = Cli::command();
    match dir {
        Some(dir) => clap_mangen::generate_to(cmd, &dir).map_err(|e| {
            Failure::usage(
                format!("cannot write man pages into `{}`: {e}", dir.display()),
                Some("the directory must exist and be writable".into()),
            )
        })?,
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut out)
                .map_err(|e| Failure::usage(format!("cannot render the man page: {e}"), None))?;
            emit(&String::from_utf8_lossy(&out));
        }
    }
    Ok(0)
}
