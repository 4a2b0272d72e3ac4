//! Renders one query's image (PNG, or SVG with `format=svg`) a given number of times on a warm renderer, for instruction
//! counts that do not depend on how busy the machine is:
//!
//! ```text
//! cargo build --release --example repeat
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/repeat 'fen=start' 1
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/repeat 'fen=start' 101
//! ```
//!
//! The difference of the two totals, divided by 100, is the cost of one warm render.

use staunton::Renderer;
use staunton::render::options::Format;
use staunton::request::Request;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let query = args.next().unwrap_or_else(|| "fen=start".to_string());
    let times: u32 = args.next().map_or(Ok(1), |n| n.parse())?;
    let request = Request::from_query(&query, None)?;
    let renderer = Renderer::default();
    let mut bytes = 0;
    for _ in 0..times {
        bytes = match request.format {
            Format::Svg => renderer.svg(&request.position, &request.options)?.len(),
            Format::Png => renderer.png(&request.position, &request.options)?.len(),
            other => renderer
                .render(&request.position, &request.options, other)?
                .len(),
        };
    }
    println!("{query}: {times} renders, {bytes} bytes each");
    Ok(())
}
