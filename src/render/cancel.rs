//! Stopping a render that nobody waits for any more.
//!
//! On the ground floor of `render` beside `ground`: it knows only [`RenderError`], and the
//! stages that loop (painting, the layouts) and the service all reach it.
//!
//! The service runs a render on a pool thread under a [`Cancel`] token ([`Cancel::run`])
//! and cancels the token when the request's future is dropped (its client went away, or
//! its time ran out). The pipeline looks at the thread's token at its checkpoints, which
//! are spaced at most a few tens of milliseconds of work apart even for the heaviest
//! request the limits allow: between the frames of an animation, between the marks of a
//! diagram (an arrow at 2048 px is about 10 ms), between the diagrams of a worksheet. A
//! render that sees the token cancelled stops with [`RenderError::Cancelled`], or, inside
//! painting, stops drawing and leaves it to the caller to throw the unfinished image away
//! ([`Cancel::run`] does). Nothing unfinished is ever kept in a cache: the checkpoints sit
//! only in loops whose output is the request's own.

// Only the service makes and cancels tokens; without it the checkpoints find none.
#![cfg_attr(not(feature = "server"), allow(dead_code))]
//!
//! The token is the thread's, not a parameter, so that the library's entry points stay as
//! they are: a library user who never installs one never sees a render cancelled.

use crate::render::ground::RenderError;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag shared between the one who waits for a render and the thread that runs it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<Flags>);

/// Whether the token was cancelled, and whether a checkpoint saw it (the render stopped).
#[derive(Debug, Default)]
struct Flags {
    cancelled: AtomicBool,
    stopped: AtomicBool,
}

thread_local! {
    /// The token of the render this thread runs, if any.
    static CURRENT: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

impl Cancel {
    /// A token not cancelled yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Ask every render under this token to stop.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Relaxed)
    }

    /// Whether a checkpoint of a render under this token saw it cancelled, so the render
    /// stopped early (rather than finishing and being thrown away).
    pub fn stopped(&self) -> bool {
        self.0.stopped.load(Ordering::Relaxed)
    }

    /// Run `render` with this token as the thread's: its checkpoints stop it once the
    /// token is cancelled. A result finished after the cancellation is thrown away too
    /// ([`RenderError::Cancelled`]): a render cut short may have stopped painting midway.
    pub fn run<T>(
        &self,
        render: impl FnOnce() -> Result<T, RenderError>,
    ) -> Result<T, RenderError> {
        /// Puts the thread's previous token back, even if the render panics.
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|c| *c.borrow_mut() = previous);
            }
        }
        let _restore = Restore(CURRENT.with(|c| c.replace(Some(self.clone()))));
        let out = render();
        if self.is_cancelled() {
            return Err(RenderError::Cancelled);
        }
        out
    }

    /// A guard that cancels this token when dropped: held by the future that waits for
    /// the render, so that dropping the future stops the render.
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(Some(self.clone()))
    }
}

/// Cancels its token when dropped (see [`Cancel::on_drop`]).
#[derive(Debug)]
pub struct CancelOnDrop(Option<Cancel>);

impl CancelOnDrop {
    /// Keep the render going: the guard is dropped without cancelling.
    pub fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(token) = &self.0 {
            token.cancel();
        }
    }
}

/// Whether the render running on this thread has been cancelled (never, outside
/// [`Cancel::run`]). For loops that can stop early and leave the unfinished image for
/// [`Cancel::run`] to throw away.
pub fn requested() -> bool {
    CURRENT.with(|c| {
        let current = c.borrow();
        let Some(token) = current.as_ref() else {
            return false;
        };
        let cancelled = token.is_cancelled();
        if cancelled {
            token.0.stopped.store(true, Ordering::Relaxed);
        }
        cancelled
    })
}

/// `Err(RenderError::Cancelled)` when the render running on this thread has been
/// cancelled: a checkpoint for code that returns a `Result`.
pub fn check() -> Result<(), RenderError> {
    match requested() {
        true => Err(RenderError::Cancelled),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_see_the_token_of_their_thread_only_inside_run() {
        let token = Cancel::new();
        assert!(!requested());
        let seen = token.run(|| {
            assert!(check().is_ok());
            token.cancel();
            Ok(requested())
        });
        assert!(matches!(seen, Err(RenderError::Cancelled)));
        assert!(token.stopped(), "a checkpoint saw it");
        assert!(!requested(), "the token is the thread's only inside run");
        let finished = Cancel::new();
        let late = finished.run(|| {
            finished.cancel();
            Ok(())
        });
        assert!(matches!(late, Err(RenderError::Cancelled)));
        assert!(
            !finished.stopped(),
            "finished, then thrown away: no checkpoint saw it"
        );
        let panicked = Cancel::new();
        panicked.cancel();
        let caught = std::panic::catch_unwind(|| panicked.run(|| -> Result<(), _> { panic!() }));
        assert!(caught.is_err());
        assert!(
            !requested(),
            "a panic does not leave the token on the thread"
        );
        let other = Cancel::new();
        assert_eq!(other.run(|| Ok(requested())).ok(), Some(false));
    }

    #[test]
    fn dropping_the_guard_cancels_and_disarming_does_not() {
        let token = Cancel::new();
        token.on_drop().disarm();
        assert!(!token.is_cancelled());
        drop(token.on_drop());
        assert!(token.is_cancelled());
    }
}
