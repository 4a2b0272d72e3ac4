//! The Typst package's WebAssembly plugin: the crate's SVG renderer behind the protocol
//! Typst speaks with a plugin.
//!
//! Each exported function takes its arguments' lengths; the plugin asks the host for the
//! bytes ([`write_args_to_buffer`]), answers with one buffer ([`send_result_to_host`]) and
//! returns 0 when the buffer is the result, 1 when it is an error's message (which Typst
//! shows as the compile's error). Every function takes one argument: the request, a CBOR
//! array of `[name, value]` pairs of text (what Typst's `cbor.encode` writes for
//! `(("fen", "…"), …)`), the service's parameters, named as the service names them or in
//! Typst's kebab-case (`last-move`).
//!
//! The calls go through the crate's one door for embedders (`staunton::embed`: its
//! parser, limits and price) and its SVG writer, so a diagram here is byte for byte the
//! service's `format=svg` answer. Nothing here reads a clock, draws a random number or
//! touches a file.

mod cbor;

use staunton::embed::{self, Failure, kebab_suggestion, service_spelling};
use staunton::render::options::Format;

/// The query pairs of `args` (CBOR), each name as the service spells it
/// ([`service_spelling`]: `last-move` is `last_move`).
fn pairs(args: &[u8]) -> Result<Vec<(String, String)>, Failure> {
    let pairs = cbor::pairs(args)
        .ok_or_else(|| Failure::input("", "the plugin was called with arguments it cannot read"))?;
    Ok(pairs
        .into_iter()
        .map(|(name, value)| (service_spelling(name), value))
        .collect())
}

/// The request of `args`, read as the service reads a query.
fn request(args: &[u8]) -> Result<staunton::request::Request, Failure> {
    embed::request(pairs(args)?, Some(Format::Svg)).map_err(kebab_suggestion)
}

/// The diagram of the request `args`, as SVG text.
pub fn render(args: &[u8]) -> Result<Vec<u8>, Failure> {
    let request = request(args)?;
    let renderer = embed::renderer();
    let svg = renderer.svg(&request.position, &request.options)?;
    Ok(svg.into_bytes())
}

/// The diagram of the request `args` with its alternative text, in one call (a plugin
/// call costs more than either): the text, a NUL byte, the SVG.
pub fn figure(args: &[u8]) -> Result<Vec<u8>, Failure> {
    let pairs = pairs(args)?;
    let (text, _) = embed::describe(pairs.clone()).map_err(kebab_suggestion)?;
    let request = embed::request(pairs, Some(Format::Svg)).map_err(kebab_suggestion)?;
    let svg = embed::renderer().svg(&request.position, &request.options)?;
    Ok([text.as_bytes(), b"\0", svg.as_bytes()].concat())
}

/// What the service's `/describe` says of the request `args`: the diagram's alternative
/// text.
pub fn describe(args: &[u8]) -> Result<Vec<u8>, Failure> {
    let (text, _) = embed::describe(pairs(args)?).map_err(kebab_suggestion)?;
    Ok(text.into_bytes())
}

/// Where the board lies in the diagram of `args` and the labels along its edges, as JSON:
/// `{"width":…,"height":…,"board":[x,y,w,h],"frame":…,"files":"ab…","ranks":[8,…]}`.
pub fn frame(args: &[u8]) -> Result<Vec<u8>, Failure> {
    let request = request(args)?;
    let frame = embed::renderer().frame(&request.position, &request.options);
    let b = frame.board;
    let files: String = frame.files.iter().collect();
    let ranks: Vec<String> = frame.ranks.iter().map(u8::to_string).collect();
    let json = format!(
        r#"{{"width":{},"height":{},"board":[{},{},{},{}],"frame":{},"files":"{}","ranks":[{}]}}"#,
        frame.width,
        frame.height,
        b.x,
        b.y,
        b.w,
        b.h,
        frame.frame,
        files,
        ranks.join(",")
    );
    Ok(json.into_bytes())
}

/// The crate's version.
pub fn version() -> Vec<u8> {
    env!("CARGO_PKG_VERSION").into()
}

#[cfg(target_arch = "wasm32")]
mod protocol {
    //! The protocol's two imports and the exported functions (Typst's plugin protocol:
    //! every argument is a length, the bytes come from the host).

    use staunton::embed::Failure;

    #[link(wasm_import_module = "typst_env")]
    unsafe extern "C" {
        /// Writes the call's arguments, one after another, at `ptr`.
        fn wasm_minimal_protocol_write_args_to_buffer(ptr: *mut u8);
        /// Hands the host the result (or error message) at `ptr`, `len` bytes; the host
        /// copies it at once.
        fn wasm_minimal_protocol_send_result_to_host(ptr: *const u8, len: usize);
    }

    /// The call's one argument, `len` bytes.
    fn argument(len: usize) -> Vec<u8> {
        let mut buffer = vec![0u8; len];
        // SAFETY: the host writes exactly the argument's `len` bytes at the pointer.
        unsafe { wasm_minimal_protocol_write_args_to_buffer(buffer.as_mut_ptr()) };
        buffer
    }

    /// Send `result` to the host: 0 with the answer, 1 with the error's sentence.
    fn answer(result: Result<Vec<u8>, Failure>) -> i32 {
        let (code, bytes) = match result {
            Ok(bytes) => (0, bytes),
            Err(failure) => (1, failure.sentence.into_bytes()),
        };
        // SAFETY: the host reads `len` bytes at the pointer, during the call.
        unsafe { wasm_minimal_protocol_send_result_to_host(bytes.as_ptr(), bytes.len()) };
        code
    }

    #[unsafe(no_mangle)]
    extern "C" fn render(len: usize) -> i32 {
        answer(super::render(&argument(len)))
    }

    #[unsafe(no_mangle)]
    extern "C" fn figure(len: usize) -> i32 {
        answer(super::figure(&argument(len)))
    }

    #[unsafe(no_mangle)]
    extern "C" fn describe(len: usize) -> i32 {
        answer(super::describe(&argument(len)))
    }

    #[unsafe(no_mangle)]
    extern "C" fn frame(len: usize) -> i32 {
        answer(super::frame(&argument(len)))
    }

    #[unsafe(no_mangle)]
    extern "C" fn version() -> i32 {
        answer(Ok(super::version()))
    }
}
