//! Cancelling a launch that runs past its deadline ([`crate::Program::set_deadline`],
//! [`crate::Program::set_launch_timeout`]).
//!
//! Each launch with a deadline gets its own [`CancelFlag`], owned by the runtime for the length
//! of the launch. A watchdog thread ([`run_until`]) sleeps until the deadline (or until the
//! launch returns) and then sets the flag; the device polls it where a kernel can run forever,
//! at every `while` back edge (the interpreters at each iteration, compiled code with one
//! relaxed load per back edge), and stops the launch with a [`RuntimeErrorKind::Cancelled`]
//! error located at that loop. Every thread of a parallel launch polls the same flag, so all of
//! them stop. A launch without a deadline runs with [`CancelFlag::never`], a flag nothing sets,
//! and no watchdog thread.
//!
//! A launch that has no `while` loop is never cut short: it ends on its own.
//!
//! [`RuntimeErrorKind::Cancelled`]: crate::RuntimeErrorKind::Cancelled

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Set once a launch must stop. Compiled code reads it through its address
/// ([`CancelFlag::as_ptr`]) as a 32-bit integer: nonzero means cancelled.
#[derive(Debug, Default)]
pub struct CancelFlag(AtomicU32);

/// The flag of launches without a deadline: [`CancelFlag::cancel`] never sets it.
static NEVER: CancelFlag = CancelFlag::new();

impl CancelFlag {
    pub const fn new() -> Self {
        CancelFlag(AtomicU32::new(0))
    }

    /// A flag that stays clear, for launches without a deadline.
    pub fn never() -> &'static CancelFlag {
        &NEVER
    }

    /// Asks the launch polling this flag to stop. A no-op on [`CancelFlag::never`], which every
    /// launch without a deadline shares.
    pub fn cancel(&self) {
        if !std::ptr::eq(self, &NEVER) {
            self.0.store(1, Ordering::Relaxed);
        }
    }

    /// Whether the launch must stop. Relaxed: the flag orders nothing else, and a poll that
    /// reads it late only runs one more iteration.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed) != 0
    }

    /// The flag's address, for compiled code (a 4-byte aligned 32-bit integer that lives as
    /// long as the launch).
    pub fn as_ptr(&self) -> *const AtomicU32 {
        &self.0
    }
}

/// The message of a cancelled launch's error (located at the loop that was running).
pub fn cancelled_message() -> String {
    "launch cancelled: its deadline passed while this loop was running".to_string()
}

/// Runs `launch` with a fresh flag that a watchdog thread sets at `deadline` (at once when it has
/// passed). The watchdog ends as soon as `launch` returns, so a launch that finishes in time
/// costs one thread start.
pub fn run_until<R>(deadline: Instant, launch: impl FnOnce(&CancelFlag) -> R) -> R {
    let flag = CancelFlag::new();
    if deadline <= Instant::now() {
        flag.cancel();
        return launch(&flag);
    }
    std::thread::scope(|s| {
        let (done, wait) = mpsc::channel::<()>();
        let f = &flag;
        s.spawn(move || {
            let left = deadline.saturating_duration_since(Instant::now());
            // Disconnected: the launch returned first; Timeout: the deadline passed.
            if let Err(mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                f.cancel();
            }
        });
        let r = launch(&flag);
        drop(done);
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_watchdog_sets_the_flag_at_the_deadline() {
        let t0 = Instant::now();
        let polls = run_until(t0 + Duration::from_millis(50), |f| {
            let mut n = 0u64;
            while !f.is_cancelled() {
                n += 1;
                std::thread::yield_now();
            }
            n
        });
        assert!(polls > 0);
        assert!(t0.elapsed() >= Duration::from_millis(50));
        assert!(t0.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_launch_that_ends_in_time_is_not_cancelled_and_does_not_wait() {
        let t0 = Instant::now();
        let cancelled = run_until(t0 + Duration::from_secs(60), |f| f.is_cancelled());
        assert!(!cancelled);
        assert!(t0.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_passed_deadline_cancels_at_once() {
        let past = Instant::now();
        std::thread::sleep(Duration::from_millis(1));
        assert!(run_until(past, |f| f.is_cancelled()));
    }

    #[test]
    fn never_cannot_be_cancelled() {
        CancelFlag::never().cancel();
        assert!(!CancelFlag::never().is_cancelled());
        let f = CancelFlag::new();
        f.cancel();
        assert!(f.is_cancelled());
    }
}
