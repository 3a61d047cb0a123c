//! A progress bar on stderr for launches that take more than about a second.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a launch runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Runs `work`, which counts finished blocks in its argument; after [`DELAY`] a bar of `total`
/// blocks is drawn on stderr until `work` returns. Nothing is drawn for a quick launch.
pub fn with_bar<T>(total: u64, work: impl FnOnce(&AtomicU64) -> T) -> T {
    let done = AtomicU64::new(0);
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
                "{elapsed:>4} [{bar:40}] {pos}/{len} blocks ({eta} left)",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            while !finished.load(Ordering::Relaxed) {
                bar.set_position(done.load(Ordering::Relaxed));
                std::thread::sleep(step);
            }
            bar.finish_and_clear();
        });
        let result = work(&done);
        finished.store(true, Ordering::Relaxed);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_runs_and_returns_its_value() {
        let value = with_bar(3, |done| {
            done.fetch_add(3, Ordering::Relaxed);
            42
        });
        assert_eq!(value, 42);
    }
}
