//! Renders one query's PNG on a brand-new renderer a given number of times: the first render
//! at a size never seen, for profiling (`perf record`, callgrind):
//!
//! ```text
//! cargo build --release --example first_render
//! perf record -g target/release/examples/first_render 'fen=start&size=800' 200
//! target/release/examples/first_render 'fen=start&size=800' 200 resvg   # usvg + resvg instead
//! ```

use staunton::Renderer;
use staunton::request::Request;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let query = args.next().unwrap_or_else(|| "fen=start".to_string());
    let times: u32 = args.next().map_or(Ok(1), |n| n.parse())?;
    let request = Request::from_query(&query, None)?;
    let mut bytes = 0;
    let mut spent = std::time::Duration::ZERO;
    let resvg = args.next().as_deref() == Some("resvg");
    let svg = Renderer::default().svg(&request.position, &request.options)?;
    let usvg_options = usvg::Options::default();
    for _ in 0..times {
        let renderer = Renderer::default();
        let started = std::time::Instant::now();
        if resvg {
            let tree = usvg::Tree::from_str(&svg, &usvg_options)?;
            let size = tree.size().to_int_size();
            let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("size")?;
            resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
            bytes = pixmap.data().len();
        } else {
            bytes = renderer.png(&request.position, &request.options)?.len();
        }
        spent += started.elapsed();
        drop(renderer);
    }
    let each = spent / times.max(1);
    println!("{query}: {times} first renders, {bytes} bytes each, {each:?} each");
    Ok(())
}
