//! Query string → options → SVG: never panics, and every SVG we write parses with usvg.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn renderer() -> &'static staunton::Renderer {
    static R: OnceLock<staunton::Renderer> = OnceLock::new();
    R.get_or_init(staunton::Renderer::default)
}

fuzz_target!(|data: &[u8]| {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(request) = staunton::request::Request::from_query(query, None) else {
        return;
    };
    // Keep each run small: the size does not change the structure of the SVG.
    let mut options = request.options.clone();
    options.size = options.size.min(200);
    if let Ok(svg) = renderer().svg(&request.position, &options) {
        usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("our SVG parses");
    }
});
