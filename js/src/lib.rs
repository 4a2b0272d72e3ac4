//! The npm package's WebAssembly module: the crate's renderer behind a few raw exports,
//! read by the hand-written glue in `lib/core.js` (no wasm-bindgen).
//!
//! The glue writes a call's arguments into memory from [`alloc`] as a list of fields (each
//! a little-endian `u32` length, then that many bytes of UTF-8 or data) and calls [`call`]
//! with an operation number. The answer is another list of fields at [`out_ptr`] /
//! [`out_len`], valid until the next call; `call` returns 0 when it holds the results and
//! 1 when it holds an error: the parameter at fault (empty when none), the sentence the
//! service answers with a 400, a fence's line and the suggestion for a misspelt name.
//! Calls go through the crate's one door for embedders (`staunton::embed`: its parser,
//! limits, price and renderer); this module only marshals.

use staunton::Format;
use staunton::embed::{self, Failure};
use staunton::markdown::{emit, fence};
use staunton::SvgForm;
use std::cell::RefCell;

/// The operations of [`call`], numbered as `lib/core.js` numbers them.
const RENDER: u32 = 1;
const GAME: u32 = 2;
const DESCRIBE: u32 = 3;
const FENCE: u32 = 4;
const PARAMETERS: u32 = 5;
const VERSION: u32 = 6;
const SUGGESTION: u32 = 7;

/// A call's failure, and for a fence the line of its body the fault stands on (0: the
/// opening line).
struct Fault(Failure, usize);

impl From<Failure> for Fault {
    fn from(failure: Failure) -> Fault {
        Fault(failure, 0)
    }
}

type Fields = Vec<Vec<u8>>;

thread_local! {
    /// The last call's answer, read by the glue through `out_ptr` and `out_len`.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes of a call's arguments; [`call`] takes it back.
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Where the last call's answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// The last call's answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}

/// Run operation `op` on the `len` bytes of fields at `ptr` (from [`alloc`], freed here).
/// Returns 0 with the results, 1 with an error, 2 for an operation or fields the glue
/// should never send.
///
/// # Safety
/// `ptr` must come from `alloc(len)`, written in full, and not be used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn call(op: u32, ptr: *mut u8, len: usize) -> u32 {
    // SAFETY: the glue passes what `alloc(len)` gave it, once (see above).
    let input = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let (status, fields) = match fields(&input) {
        None => (2, vec![b"malformed call".to_vec()]),
        Some(args) => match run(op, &args) {
            Ok(fields) => (0, fields),
            Err(Fault(failure, line)) => (
                1,
                vec![
                    failure.param.into(),
                    failure.sentence.into_bytes(),
                    line.to_string().into(),
                    failure.suggestion.unwrap_or("").into(),
                ],
            ),
        },
    };
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        out.shrink_to(1 << 20);
        for field in fields {
            out.extend_from_slice(&(field.len() as u32).to_le_bytes());
            out.extend_from_slice(&field);
        }
    });
    status
}

/// The fields of a call's arguments, as strings; `None` when they are not well formed.
fn fields(mut bytes: &[u8]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let (len, rest) = bytes.split_first_chunk::<4>()?;
        let len = u32::from_le_bytes(*len) as usize;
        let field = rest.get(..len)?;
        out.push(String::from_utf8(field.to_vec()).ok()?);
        bytes = &rest[len..];
    }
    Some(out)
}

/// Query pairs from a flat list `[name, value, name, value, …]`.
fn pairs(flat: &[String]) -> Vec<(String, String)> {
    flat.chunks_exact(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect()
}

fn run(op: u32, args: &[String]) -> Result<Fields, Fault> {
    let first = |n: usize| args.get(n).map(String::as_str).unwrap_or("");
    let rest = |n: usize| pairs(args.get(n..).unwrap_or(&[]));
    let bytes = match op {
        RENDER => embed::render(rest(1), first(0))?,
        GAME => {
            let pgn = (first(1) == "1").then(|| first(2));
            embed::render_game(rest(3), pgn, first(0))?
        }
        DESCRIBE => {
            let (text, plies) = embed::describe(rest(0))?;
            let plies = plies.map(|p| p.to_string()).unwrap_or_default();
            return Ok(vec![text.into_bytes(), plies.into_bytes()]);
        }
        FENCE => return read_fence(first(0), first(1), first(2), &rest(3)),
        PARAMETERS => return Ok(parameters()),
        SUGGESTION => embed::suggestion(first(0), first(1) == "1")
            .unwrap_or("")
            .into(),
        VERSION => env!("CARGO_PKG_VERSION").into(),
        _ => return Err(Failure::input("", format!("no operation {op}")).into()),
    };
    Ok(vec![bytes])
}

/// Read a Markdown fence (`info`, `body`) with the crate's grammar over `defaults` and
/// render it as `format`: `svg` or `png` (an image file), or `inline` (the SVG element a
/// page holds, as `staunton markdown --inline` writes it). The fields: format, data, alt,
/// caption (empty field and a flag), width, height, file name, the service's query string.
fn read_fence(
    info: &str,
    body: &str,
    format: &str,
    defaults: &[(String, String)],
) -> Result<Fields, Fault> {
    let read = |e| {
        let line = fence::error_line(info, body, &e);
        Fault(Failure::from(e), line)
    };
    let (diagram, format) = match format {
        "svg" => (fence::read(info, body, defaults, Format::Svg).map_err(read)?, Format::Svg),
        "png" => (fence::read(info, body, defaults, Format::Png).map_err(read)?, Format::Png),
        "inline" => (fence::read_for_page(info, body, defaults).map_err(read)?, Format::Svg),
        other => {
            let sentence = format!("format {other:?} is not allowed: expected svg, png or inline");
            return Err(Failure::input("format", sentence).into());
        }
    };
    let request = &diagram.request;
    request.within_cost().map_err(Failure::from)?;
    let renderer = embed::renderer();
    let bytes = match request.options.svg_form {
        SvgForm::Inline => emit::page_svg(renderer, &diagram).map(String::into_bytes),
        _ => renderer.render(&request.position, &request.options, format),
    }
    .map_err(Failure::from)?;
    let (width, height) = match format {
        Format::Png => png_size(&bytes),
        _ => svg_size(&bytes),
    };
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in &diagram.pairs {
        query.append_pair(name, value);
    }
    let (has_caption, caption) = match &diagram.caption {
        Some(c) => ("1", c.clone()),
        None => ("0", String::new()),
    };
    Ok(vec![
        format.extension().into(),
        bytes,
        diagram.alt.clone().into_bytes(),
        has_caption.into(),
        caption.into_bytes(),
        width.to_string().into_bytes(),
        height.to_string().into_bytes(),
        diagram.file_name().into_bytes(),
        query.finish().into_bytes(),
    ])
}

/// A PNG's width and height, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    let number = |at: usize| {
        png.get(at..at + 4)
            .and_then(|b| b.try_into().ok())
            .map_or(0, u32::from_be_bytes)
    };
    (number(16), number(20))
}

/// An SVG document's width and height: its root's `width` and `height` attributes.
fn svg_size(svg: &[u8]) -> (u32, u32) {
    let text = String::from_utf8_lossy(svg);
    let root = text.split('>').next().unwrap_or("");
    let attribute = |name: &str| {
        root.split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
            .map_or(0, |v| v.round() as u32)
    };
    (attribute("width"), attribute("height"))
}

/// The parameters: for each, its canonical name, `image` or `game`, its spellings joined
/// by commas, and a list's separator (empty for a single value): four fields each.
fn parameters() -> Fields {
    embed::parameters()
        .flat_map(|(p, kind)| {
            [
                p.name.into(),
                kind.into(),
                p.spellings.join(",").into_bytes(),
                p.separator.unwrap_or("").into(),
            ]
        })
        .collect()
}
