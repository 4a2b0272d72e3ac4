//! What is wanted, before anything is drawn: the [`options`] of a render, the [`theme`]s and
//! colours they name, the [`frame`]s of an animation, and the [`cost`] of a render, priced
//! from the options alone before any stage runs (the service admits, queues or refuses a
//! request by it).
//!
//! Everything here is data and arithmetic over it: no drawing, no artwork. The rest of
//! `render` reads it; it reads only `chess`.

pub mod frame;
pub mod options;
pub mod theme;
internal_mod!(cost);
