//! The npm package's WebAssembly module: the crate's renderer behind a few raw exports,
//! read by the hand-written glue in `lib/core.js` (no wasm-bindgen).
//!
//! The glue writes a call's arguments into memory from [`alloc`] as a list of fields (each
//! a little-endian `u32` length, then that many bytes of UTF-8 or data) and calls [`call`]
//! with an operation number. The answer is another list of fields at [`out_ptr`] /
//! [`out_len`], valid until the next call; `call` returns 0 when it holds the results and
//! 1 when it holds an error: the parameter at fault (empty when none) and the sentence the
//! service answers with a 400. Requests are read by the crate's own parser under the
//! service's limits, and priced against its cost bound before they render.

use staunton::markdown::fence;
use staunton::pieces::PieceSets;
use staunton::request::{GAME_PARAMS, GameRequest, Limits, PARAMS, Query, Request, RequestError};
use staunton::{Format, RenderError, Renderer};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Longest PGN a game call takes as its text (`gameGif(pgn)`): the service's longest POSTed
/// body (`staunton::http::MAX_BODY_BYTES`, which the lean crate does not build).
const MAX_BODY_BYTES: usize = 64 * 1024;

/// The operations of [`call`], numbered as `lib/core.js` numbers them.
const RENDER: u32 = 1;
const GAME: u32 = 2;
const DESCRIBE: u32 = 3;
const FENCE: u32 = 4;
const PARAMETERS: u32 = 5;
const VERSION: u32 = 6;

/// A call's failure: the parameter at fault (`""` when none), its sentence, and for a
/// fence the line of its body the fault stands on (0: the opening line).
struct Failure(&'static str, String, usize);

impl Failure {
    fn new(param: &'static str, sentence: String) -> Failure {
        Failure(param, sentence, 0)
    }
}

impl From<RequestError> for Failure {
    fn from(e: RequestError) -> Failure {
        Failure::new(e.param, e.to_string())
    }
}

impl From<RenderError> for Failure {
    fn from(e: RenderError) -> Failure {
        let param = match e {
            RenderError::UnknownPieceSet(..) => "pieces",
            _ => "",
        };
        Failure::new(param, e.to_string())
    }
}

type Fields = Vec<Vec<u8>>;

thread_local! {
    /// The last call's answer, read by the glue through `out_ptr` and `out_len`.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The renderer's caches, in bytes: half the service's. A module's memory never shrinks, so
/// this (and the largest render the limits allow) bounds what it grows to.
const CACHE_BYTES: u64 = 32 << 20;

/// Every call shares one renderer and its caches.
fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(|| Renderer::new(PieceSets::builtin(), CACHE_BYTES))
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
            Err(Failure(param, message, line)) => (
                1,
                vec![param.into(), message.into_bytes(), line.to_string().into()],
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

fn run(op: u32, args: &[String]) -> Result<Fields, Failure> {
    let first = |n: usize| args.get(n).map(String::as_str).unwrap_or("");
    match op {
        RENDER => render(first(0), &pairs(args.get(1..).unwrap_or(&[]))),
        GAME => {
            let pgn = (first(1) == "1").then(|| first(2));
            game(first(0), pgn, &pairs(args.get(3..).unwrap_or(&[])))
        }
        DESCRIBE => {
            let query = Query::from_pairs(pairs(args));
            let described = Request::described(&query, &Limits::default())?;
            let plies = described.plies.map(|p| p.to_string()).unwrap_or_default();
            Ok(vec![described.text().into_bytes(), plies.into_bytes()])
        }
        FENCE => read_fence(
            first(0),
            first(1),
            first(2),
            &pairs(args.get(3..).unwrap_or(&[])),
        ),
        PARAMETERS => Ok(parameters()),
        VERSION => Ok(vec![env!("CARGO_PKG_VERSION").into()]),
        _ => Err(Failure::new("", format!("no operation {op}"))),
    }
}

fn format_named(name: &str) -> Result<Format, Failure> {
    Format::from_extension(name)
        .ok_or_else(|| Failure::new("format", format!("no format named {name:?}")))
}

/// One diagram of the query `pairs` in format `format` (an extension: png, svg, txt…).
fn render(format: &str, pairs: &[(String, String)]) -> Result<Fields, Failure> {
    let format = format_named(format)?;
    let request =
        Request::from_pairs_with(pairs.iter().cloned(), Some(format), &Limits::default())?;
    request
        .within_cost()
        .map_err(|e| Failure::new("size", e.to_string()))?;
    let bytes = renderer().render(&request.position, &request.options, request.format)?;
    Ok(vec![bytes])
}

/// A whole game as an animation, `kind` gif or apng; `pgn` is the game's text if given
/// (else the pairs name it).
fn game(kind: &str, pgn: Option<&str>, pairs: &[(String, String)]) -> Result<Fields, Failure> {
    if let Some(text) = pgn.filter(|t| t.len() > MAX_BODY_BYTES) {
        return Err(Failure::new(
            "pgn",
            format!(
                "the game's text is {} bytes: at most {MAX_BODY_BYTES} bytes are read",
                text.len()
            ),
        ));
    }
    let game = GameRequest::from_pairs_with(pairs.to_vec(), pgn, kind, &Limits::default())?;
    let frames = game.frames();
    let r = renderer();
    let bytes = match kind {
        "gif" => staunton::render::animate::gif(r, &frames, game.looped)?,
        "apng" => staunton::render::animate::apng(r, &frames, game.looped)?,
        _ => return Err(Failure::new("", format!("no animation kind {kind:?}"))),
    };
    Ok(vec![bytes])
}

/// Read a Markdown fence (`info`, `body`) with the crate's grammar over `defaults` and
/// render it as `format` (svg or png). The fields: format, data, alt, caption (empty
/// field and a flag), width, height, file name, the service's query string.
fn read_fence(
    info: &str,
    body: &str,
    format: &str,
    defaults: &[(String, String)],
) -> Result<Fields, Failure> {
    let format = match format {
        "svg" => Format::Svg,
        "png" => Format::Png,
        other => {
            return Err(Failure::new(
                "format",
                format!("format {other:?} is not allowed: expected svg or png"),
            ));
        }
    };
    let diagram = fence::read(info, body, defaults, format).map_err(|e| {
        let line = fence::error_line(info, body, &e);
        Failure(e.param, e.to_string(), line)
    })?;
    let request = &diagram.request;
    request
        .within_cost()
        .map_err(|e| Failure::new("size", e.to_string()))?;
    let bytes = renderer().render(&request.position, &request.options, format)?;
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

/// The parameters: for each, its canonical name, `image` or `game`, and its spellings
/// joined by commas (three fields each).
fn parameters() -> Fields {
    let image = PARAMS.iter().map(|p| (p, "image"));
    let game = GAME_PARAMS.iter().map(|p| (p, "game"));
    image
        .chain(game)
        .flat_map(|(p, kind)| {
            [
                p.name.into(),
                kind.into(),
                p.spellings.join(",").into_bytes(),
            ]
        })
        .collect()
}
