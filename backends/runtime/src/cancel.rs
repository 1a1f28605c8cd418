//! Cancelling a launch that runs past its deadline ([`crate::Program::set_deadline`],
//! [`crate::Program::set_launch_timeout`]).
//!
//! Each launch with a deadline runs with a [`CancelFlag`] owned by the runtime (the program's
//! [`Watchdog`], reset for each launch). The watchdog thread sleeps until the launch's deadline
//! and, if the launch still runs, sets the flag; the device polls it where a kernel can run forever,
//! at every `while` back edge (the interpreters at each iteration, compiled code with one
//! relaxed load per back edge), and stops the launch with a [`RuntimeErrorKind::Cancelled`]
//! error located at that loop. Every thread of a parallel launch polls the same flag, so all of
//! them stop. A launch without a deadline runs with [`CancelFlag::never`], a flag nothing sets,
//! and a program that never sets a deadline starts no watchdog thread.
//!
//! A launch that has no `while` loop is never cut short: it ends on its own.
//!
//! [`RuntimeErrorKind::Cancelled`]: crate::RuntimeErrorKind::Cancelled

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
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

/// The thread that cancels a [`crate::Program`]'s launches at their deadlines: one per program,
/// started by its first launch with a deadline (a program that never sets one starts none), and
/// ended when the program is dropped. Arming it for a launch is a lock and a wake-up; its flag is
/// reset at each arming, and set only while the launch it was armed for runs.
pub struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

struct Shared {
    /// The flag of the running launch.
    flag: CancelFlag,
    state: Mutex<State>,
    wake: Condvar,
}

#[derive(Default)]
struct State {
    /// The deadline of the running launch; None between launches and once the flag is set.
    deadline: Option<Instant>,
    quit: bool,
}

impl Watchdog {
    /// Starts the thread; an error when the system cannot start one.
    pub fn new() -> Result<Watchdog, String> {
        let shared = Arc::new(Shared {
            flag: CancelFlag::new(),
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let s = shared.clone();
        let thread = std::thread::Builder::new()
            .name("qd-watchdog".to_string())
            .spawn(move || watch(&s))
            .map_err(|e| format!("cannot start the watchdog thread: {e}"))?;
        Ok(Watchdog {
            shared,
            thread: Some(thread),
        })
    }

    /// Runs `launch` with this watchdog's flag, set at `deadline` (at once when it has passed)
    /// unless `launch` returns first.
    pub fn run<R>(&mut self, deadline: Instant, launch: impl FnOnce(&CancelFlag) -> R) -> R {
        {
            let mut st = lock(&self.shared.state);
            self.shared.flag.0.store(0, Ordering::Relaxed);
            st.deadline = Some(deadline);
            self.shared.wake.notify_one();
        }
        let r = launch(&self.shared.flag);
        // The thread then sleeps until the old deadline at most, finds nothing and waits on.
        lock(&self.shared.state).deadline = None;
        r
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        lock(&self.shared.state).quit = true;
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A poisoned lock still holds a valid state (nothing panics while holding it).
fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The watchdog thread: sleeps until the armed deadline, or until armed.
fn watch(s: &Shared) {
    let mut st = lock(&s.state);
    loop {
        if st.quit {
            return;
        }
        st = match st.deadline {
            None => s.wake.wait(st).unwrap_or_else(|e| e.into_inner()),
            Some(d) => {
                let now = Instant::now();
                if now >= d {
                    // Under the lock: the launch it was armed for is still running.
                    s.flag.cancel();
                    st.deadline = None;
                    st
                } else {
                    s.wake
                        .wait_timeout(st, d - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_watchdog_sets_the_flag_at_the_deadline() {
        let mut w = Watchdog::new().unwrap();
        let t0 = Instant::now();
        let polls = w.run(t0 + Duration::from_millis(50), |f| {
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
        // Armed again, the flag starts clear, and a launch that ends in time is not cancelled
        // and does not wait for its deadline.
        let t1 = Instant::now();
        let cancelled = w.run(t1 + Duration::from_secs(60), |f| f.is_cancelled());
        assert!(!cancelled);
        assert!(t1.elapsed() < Duration::from_secs(5));
        // A deadline that has passed cancels at once.
        let past = Instant::now();
        std::thread::sleep(Duration::from_millis(1));
        let waited = w.run(past, |f| {
            let t = Instant::now();
            while !f.is_cancelled() {
                std::thread::yield_now();
            }
            t.elapsed()
        });
        assert!(waited < Duration::from_secs(5));
    }

    #[test]
    fn a_flag_set_for_one_launch_is_not_set_for_the_next() {
        let mut w = Watchdog::new().unwrap();
        w.run(Instant::now(), |f| {
            while !f.is_cancelled() {
                std::thread::yield_now();
            }
        });
        // Between launches nothing is armed: the next launch sees a clear flag until its own
        // deadline.
        std::thread::sleep(Duration::from_millis(20));
        let cancelled = w.run(Instant::now() + Duration::from_secs(60), |f| {
            f.is_cancelled()
        });
        assert!(!cancelled);
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
