//! The HTTP service, one test binary (each module was a test binary of its own; one binary
//! links the crate once): the contract through the router and over a socket (`http`),
//! hostile input and faults (`abuse`).
//!
//! `tests/reliability.rs` stays a binary of its own: its timing tests take a lock so that they
//! run one at a time, and other tests beside them would change their timings.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/doors.rs"]
mod doors_corpus;

mod abuse;
mod article;
mod card;
mod control;
mod doors;
mod error_image;
mod http;
mod keys;
mod page;
mod params;
mod support;
mod text;
