//! A progress bar on stderr for launches that take more than about a second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::exec::Progress;

/// How long a launch runs before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// Runs `work`, which counts finished blocks and steps in its argument; after [`DELAY`] a bar of
/// `total` blocks, with the warp steps taken so far (a launch of one long block moves those), is
/// drawn on stderr until `work` returns. Nothing is drawn for a quick launch.
pub fn with_bar<T>(total: u64, work: impl FnOnce(&Progress) -> T) -> T {
    let progress = Progress::default();
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut waited = Duration::ZERO;
            let step = Duration::from_millis(50);
            while waited < DELAY {
                if finished.load(Ordering::Relaxed) {
                    return;
                }
                std::thread::sleep(step);
                waited += step;
            }
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed:>4} [{bar:40}] {pos}/{len} blocks ({eta} left), {msg}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            while !finished.load(Ordering::Relaxed) {
                bar.set_position(progress.blocks.load(Ordering::Relaxed));
                bar.set_message(steps(progress.steps.load(Ordering::Relaxed)));
                std::thread::sleep(step);
            }
            bar.finish_and_clear();
        });
        let result = work(&progress);
        finished.store(true, Ordering::Relaxed);
        result
    })
}

/// `12.3M warp steps`.
fn steps(n: u64) -> String {
    let n = n as f64;
    let (v, unit) = if n >= 1e9 {
        (n / 1e9, "G")
    } else if n >= 1e6 {
        (n / 1e6, "M")
    } else if n >= 1e3 {
        (n / 1e3, "k")
    } else {
        (n, "")
    };
    format!("{v:.1}{unit} warp steps")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_runs_and_returns_its_value() {
        let value = with_bar(3, |done| {
            done.blocks.fetch_add(3, Ordering::Relaxed);
            42
        });
        assert_eq!(value, 42);
    }

    #[test]
    fn steps_read_in_thousands_millions_and_billions() {
        assert_eq!(steps(999), "999.0 warp steps");
        assert_eq!(steps(12_345_678), "12.3M warp steps");
        assert_eq!(steps(4_294_967_296), "4.3G warp steps");
    }
}
