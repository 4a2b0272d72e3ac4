//! The snapshot helper as a user of the library writes it (the README's "Snapshot tests"
//! shows this file): each diagram kept as `tests/snapshots/NAME.png`. After an intended
//! change to how diagrams look, run
//! `STAUNTON_UPDATE_SNAPSHOTS=1 cargo test --test render snapshot_example`, look at the
//! files and commit them.

use staunton::RenderOptions;
use staunton::request::Request;

#[test]
fn start_position() {
    // Keeps tests/snapshots/start.png beside Cargo.toml.
    let options = RenderOptions {
        size: 240,
        ..RenderOptions::default()
    };
    staunton::assert_diagram!("start", "start", &options);
}

#[test]
fn after_e4() {
    // Marks (last move, arrows, highlights…) are easiest to give as the service's query.
    let request = Request::from_query(
        "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&lastMove=e2e4&size=240&coordinates=inside",
        None,
    )
    .expect("a good query");
    staunton::assert_diagram!("after-e4", &request.position, &request.options);
}
