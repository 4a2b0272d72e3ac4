//! Animations: a game's positions as an animated GIF or APNG.
//!
//! Every frame is rendered as palette indices by the same pipeline as a still PNG (so the
//! board looks the same in both), with optional player bars above and below. After the
//! first frame only the rectangle that changed is stored, and inside it the pixels that
//! did not change are transparent, so a move costs about its two squares.

use crate::chess::game::Game;
use crate::chess::piece::Color;
use crate::render::art::font::TextFace;
use crate::render::encode;
use crate::render::encode::lzw::Lzw;
use crate::render::spec::options::{CommentMarks, Glyph, LastMove, Orientation, RenderOptions};
use crate::render::Renderer;
use crate::render::ground::{Indexed, RenderError};
use std::collections::HashMap;

pub use crate::render::spec::frame::{Bar, Frame};

/// A game to animate, validated (by `request::GameRequest`): the plies shown, how long
/// each shows, every frame's options, whether player bars are drawn, and each shown ply's
/// comment marks (`[%cal]` arrows, `[%csl]` squares, `[%mark]` markers).
#[derive(Debug, Clone)]
pub struct Play {
    /// The game.
    pub game: Game,
    /// The options of every frame; a frame's last move, marks, glyph and orientation are
    /// the game's.
    pub options: RenderOptions,
    /// The first ply shown.
    pub from: usize,
    /// The last ply shown.
    pub to: usize,
    /// Hundredths of a second each frame shows.
    pub delay: u16,
    /// Hundredths of a second the last frame shows.
    pub last_delay: u16,
    /// Player bars above and below the board (names from the tags, clocks from `[%clk]`).
    pub bars: bool,
    /// The comment marks (`[%cal]`, `[%csl]`, `[%mark]`) of each ply shown, `from` first.
    pub marks: Vec<CommentMarks>,
}

impl Play {
    /// The frames, one per ply shown. The board keeps the side it started with at the
    /// bottom, and each frame shows the move that led to it, its marks and its glyph.
    pub fn frames(&self) -> Vec<Frame> {
        let game = &self.game;
        let bottom = self.options.orientation.bottom(game.position(0).turn);
        let lines = self.bars.then(|| player_lines(game));
        let clocks = clocks(game, self.to);
        let mut frames = Vec::with_capacity(self.to - self.from + 1);
        for (ply, marks) in (self.from..=self.to).zip(&self.marks) {
            let mut options = self.options.clone();
            options.last_move = game.last_move(ply).map(|(from, to)| LastMove {
                from: Some(from),
                to,
                piece: None,
            });
            marks.apply(&mut options);
            options.glyph = game.nag(ply).and_then(Glyph::from_nag);
            options.orientation = match bottom {
                Color::White => Orientation::White,
                Color::Black => Orientation::Black,
            };
            let bars = lines.as_ref().map(|[white, black]| {
                let clocks = &clocks[ply];
                let white = Bar {
                    player: white.clone(),
                    clock: clocks[0].clone(),
                };
                let black = Bar {
                    player: black.clone(),
                    clock: clocks[1].clone(),
                };
                match bottom {
                    Color::White => [black, white],
                    Color::Black => [white, black],
                }
            });
            frames.push(Frame {
                position: game.position(ply),
                options,
                delay: if ply == self.to {
                    self.last_delay
                } else {
                    self.delay
                },
                bars,
            });
        }
        frames
    }
}

/// The bars' lines for White and Black: title, name, rating (`GM Carlsen, Magnus (2850)`).
fn player_lines(game: &Game) -> [String; 2] {
    ["White", "Black"].map(|side| {
        let name = match game.header(side).map(str::trim) {
            Some(n) if !n.is_empty() && n != "?" => n.to_string(),
            _ => side.to_string(),
        };
        let title = game
            .header(&format!("{side}Title"))
            .map(str::trim)
            .filter(|t| !t.is_empty() && *t != "-" && *t != "?");
        let elo = game
            .header(&format!("{side}Elo"))
            .map(str::trim)
            .filter(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()));
        let mut line = String::new();
        if let Some(t) = title {
            line.push_str(t);
            line.push(' ');
        }
        line.push_str(&name);
        if let Some(e) = elo {
            line.push_str(&format!(" ({e})"));
        }
        line
    })
}

/// The clocks of White and Black after every ply up to `to`: each side's last `[%clk]`.
fn clocks(game: &Game, to: usize) -> Vec<[Option<String>; 2]> {
    let mut now = [None, None];
    let mut out = Vec::with_capacity(to + 1);
    out.push(now.clone());
    for ply in 1..=to {
        if let (Some(clock), Some(mover)) = (clock_of(game.comment(ply)), game.mover(ply)) {
            now[usize::from(mover == Color::Black)] = Some(clock);
        }
        out.push(now.clone());
    }
    out
}

/// `[%clk 1:02:03.4]` in a comment, as shown: `1:02:03`, or `2:03` under an hour.
fn clock_of(comment: &str) -> Option<String> {
    let at = comment.find("[%clk")?;
    let rest = comment[at + 5..].trim_start();
    let value = &rest[..rest.find(']')?];
    let value = value.trim().split('.').next()?;
    let parts: Vec<u32> = value
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let (h, m, s) = match parts.as_slice() {
        [h, m, s] => (*h, *m, *s),
        [m, s] => (0, *m, *s),
        _ => return None,
    };
    Some(match h {
        0 => format!("{m}:{s:02}"),
        _ => format!("{h}:{m:02}:{s:02}"),
    })
}

/// The bars' background and text colours.
const BAR_BACKGROUND: [u8; 3] = [0x26, 0x24, 0x21];
const BAR_TEXT: [u8; 3] = [0xee, 0xec, 0xe9];
/// Levels of text coverage in a bar (its anti-aliasing ramp).
const LEVELS: usize = 16;

/// One frame as palette indices, in three parts: the top bar, the board, the bottom bar
/// (the bars empty when there are none). The indices are into the animation's shared
/// palette, unless the frame has a `local` one.
#[derive(Debug, Default, Clone)]
struct Canvas {
    width: usize,
    height: usize,
    /// Rows of the top bar (the bottom bar has as many).
    bar: usize,
    parts: [Vec<u8>; 3],
    local: Option<Vec<u8>>,
}

impl Canvas {
    /// Row `y` of the frame.
    fn row(&self, y: usize) -> &[u8] {
        let w = self.width;
        let board = self.height - 2 * self.bar;
        let (part, y) = if y < self.bar {
            (0, y)
        } else if y < self.bar + board {
            (1, y - self.bar)
        } else {
            (2, y - self.bar - board)
        };
        &self.parts[part][y * w..(y + 1) * w]
    }
}

/// The colour of pixel (`x`, `y`) of `canvas`, whose shared palette is `shared`.
fn colour(canvas: &Canvas, shared: &[u8], x: usize, y: usize) -> [u8; 3] {
    let palette = canvas.local.as_deref().unwrap_or(shared);
    let p = 3 * usize::from(canvas.row(y)[x]);
    [palette[p], palette[p + 1], palette[p + 2]]
}

/// Most colours of the shared palette: index 255 stays free for transparency.
const SHARED: usize = 255;

/// Renders frames into canvases, keeping the bars it has painted and the palette all
/// frames share (each frame's colours are found there, or added while there is room).
struct Composer<'a> {
    renderer: &'a Renderer,
    board: Indexed,
    /// Per (side, bar): the text coverage of the bar, one level (0–15) per pixel.
    bars: HashMap<(usize, Bar), Vec<u8>>,
    /// The shared palette (RGB triplets, at most [`SHARED`]) and each colour's entry.
    shared: Vec<u8>,
    entries: HashMap<[u8; 3], u8>,
    /// The frame palette `table` was made for, and its entries' shared ones.
    table_for: Vec<u8>,
    table: Vec<u8>,
}

impl Composer<'_> {
    /// The shared entry of `colour`: the entry of that colour, or of one within
    /// [`encode::PALETTE_TOLERANCE`] (a render's palette may draw a pixel's colour by the
    /// centre of a box of colours, which moves a little from frame to frame: matching them
    /// keeps unchanged squares unchanged), or, once the palette is three quarters full,
    /// within twice that; else a new entry if there is room.
    fn entry(&mut self, colour: [u8; 3]) -> Option<u8> {
        if let Some(&e) = self.entries.get(&colour) {
            return Some(e);
        }
        let full = self.shared.len() / 3 >= SHARED * 3 / 4;
        let tolerance = encode::PALETTE_TOLERANCE * if full { 2 } else { 1 };
        let close = |e: &[u8]| (0..3).all(|c| e[c].abs_diff(colour[c]) <= tolerance);
        if let Some(e) = self.shared.chunks_exact(3).position(close) {
            self.entries.insert(colour, e as u8);
            return Some(e as u8);
        }
        let e = self.shared.len() / 3;
        (e < SHARED).then(|| {
            self.shared.extend_from_slice(&colour);
            self.entries.insert(colour, e as u8);
            e as u8
        })
    }

    /// The table mapping the board's indices onto the shared palette (`None` when they
    /// are the shared ones already); `Err` when its colours do not fit there.
    fn share_board(&mut self) -> Result<Option<[u8; 256]>, ()> {
        if self.board.palette != self.table_for {
            // An index keeps the shared entry it had in the last frame while its colour
            // stays within twice the palette tolerance of it: a render draws a colour by
            // the centre of its box, which moves a little with what else the frame holds,
            // and a square that did not change must not count as changed.
            let palette = std::mem::take(&mut self.board.palette);
            let previous = std::mem::take(&mut self.table);
            let drift = 2 * encode::PALETTE_TOLERANCE;
            let table: Option<Vec<u8>> = palette
                .chunks_exact(3)
                .enumerate()
                .map(|(i, c)| {
                    let colour = [c[0], c[1], c[2]];
                    let kept = previous.get(i).copied().filter(|&e| {
                        let at = 3 * usize::from(e);
                        (0..3).all(|k| self.shared[at + k].abs_diff(colour[k]) <= drift)
                    });
                    kept.or_else(|| self.entry(colour))
                })
                .collect();
            self.board.palette = palette;
            let Some(table) = table else {
                self.table_for.clear();
                return Err(());
            };
            self.table = table;
            self.table_for.clone_from(&self.board.palette);
        }
        let identity = self
            .table
            .iter()
            .enumerate()
            .all(|(i, &e)| usize::from(e) == i);
        Ok((!identity).then(|| {
            let mut table = [0u8; 256];
            table[..self.table.len()].copy_from_slice(&self.table);
            table
        }))
    }

    fn canvas(&mut self, frame: &Frame, out: &mut Canvas) -> Result<(), RenderError> {
        self.renderer
            .indexed(&frame.position, &frame.options, &mut self.board)?;
        let (w, h) = (self.board.width as usize, self.board.height as usize);
        let shared = self.share_board();
        let mut local = shared.is_err().then(|| self.board.palette.clone());
        let table = shared.ok().flatten();
        // The board's indices onto the shared palette. The entries of the board's context
        // come first and keep their places, so only pixels of the entries a frame adds (its
        // tints, glows, arrows) are looked up: a block of 64 pixels whose largest index is
        // below those stays as it is.
        if let Some(t) = &table {
            let kept = (0..256).find(|&i| usize::from(t[i]) != i).unwrap_or(256);
            for block in self.board.indices.chunks_mut(64) {
                let top = block.iter().fold(0u8, |m, &b| m.max(b));
                if usize::from(top) >= kept {
                    for b in block {
                        *b = t[usize::from(*b)];
                    }
                }
            }
        }
        // Handed over, not copied: the next render refills the buffer it gets back.
        std::mem::swap(&mut out.parts[1], &mut self.board.indices);
        out.width = w;
        out.parts[0].clear();
        out.parts[2].clear();
        let Some(bars) = &frame.bars else {
            out.height = h;
            out.bar = 0;
            out.local = local;
            return Ok(());
        };
        let bar_h = bar_height(w);
        out.height = h + 2 * bar_h;
        out.bar = bar_h;
        let ramp: [u8; LEVELS] = match &mut local {
            Some(palette) => ramp(palette),
            None => {
                let entries: Option<Vec<u8>> = (0..LEVELS).map(|l| self.entry(level(l))).collect();
                match entries {
                    Some(e) => std::array::from_fn(|l| e[l]),
                    None => {
                        // No room for the bars' colours: this frame gets a palette of its own.
                        let mut palette = self.shared.clone();
                        let ramp = ramp(&mut palette);
                        local = Some(palette);
                        ramp
                    }
                }
            }
        };
        for (side, bar) in bars.iter().enumerate() {
            let levels = self
                .bars
                .entry((side, bar.clone()))
                .or_insert_with(|| paint_bar(bar, w, bar_h));
            out.parts[2 * side].extend(levels.iter().map(|&l| ramp[usize::from(l)]));
        }
        out.local = local;
        Ok(())
    }
}

/// Height of the player bars over a board image `width` wide.
fn bar_height(width: usize) -> usize {
    (width / 12).max(12)
}

/// The colour of text coverage `level` (0–15) in a bar.
fn level(level: usize) -> [u8; 3] {
    std::array::from_fn(|c| {
        let (a, b) = (f32::from(BAR_BACKGROUND[c]), f32::from(BAR_TEXT[c]));
        (a + (b - a) * level as f32 / (LEVELS - 1) as f32).round() as u8
    })
}

/// The palette entries of the bars' ramp: appended to `palette` when there is room, else
/// the nearest entries it has.
fn ramp(palette: &mut Vec<u8>) -> [u8; LEVELS] {
    let len = palette.len() / 3;
    if len + LEVELS <= SHARED {
        for l in 0..LEVELS {
            palette.extend_from_slice(&level(l));
        }
        return std::array::from_fn(|l| (len + l) as u8);
    }
    std::array::from_fn(|l| {
        let want = level(l);
        let distance = |e: &[u8]| -> u32 {
            (0..3)
                .map(|c| u32::from(e[c].abs_diff(want[c])).pow(2))
                .sum()
        };
        palette
            .chunks_exact(3)
            .enumerate()
            .min_by_key(|(_, e)| distance(e))
            .map_or(0, |(i, _)| i as u8)
    })
}

/// The text coverage of a bar `w` × `h`, one level per pixel: the player on the left, the
/// clock in bold on the right.
fn paint_bar(bar: &Bar, w: usize, h: usize) -> Vec<u8> {
    let mut levels = vec![0u8; w * h];
    let Some(mut pixmap) = tiny_skia::Pixmap::new(w as u32, h as u32) else {
        return levels;
    };
    let (Some(book), Some(bold)) = (TextFace::builtin(false), TextFace::builtin(true)) else {
        return levels;
    };
    let px = h as f32 * 0.42;
    let pad = h as f32 * 0.3;
    let baseline = (h as f32 + book.cap_height(px)) / 2.0;
    let white = [255, 255, 255, 255];
    let mut room = w as f32 - 2.0 * pad;
    if let Some(clock) = &bar.clock {
        let cw = bold.width(clock, px);
        bold.paint(
            clock,
            px,
            (w as f32 - pad - cw, baseline),
            white,
            &mut pixmap.as_mut(),
        );
        room -= cw + pad;
    }
    let player = book.fit(&bar.player, px, room.max(0.0));
    book.paint(&player, px, (pad, baseline), white, &mut pixmap.as_mut());
    for (level, px) in levels.iter_mut().zip(pixmap.data().chunks_exact(4)) {
        *level = ((u32::from(px[3]) * (LEVELS as u32 - 1) + 127) / 255) as u8;
    }
    levels
}

/// Whether pixel (`x`, `y`) looks the same in `a` and `b`: the same shared entry, or (when
/// either has a palette of its own) colours within twice the palette tolerance, as the
/// shared entries are matched.
fn same(a: &Canvas, b: &Canvas, shared: &[u8], x: usize, y: usize) -> bool {
    match (&a.local, &b.local) {
        (None, None) => a.row(y)[x] == b.row(y)[x],
        _ => {
            let (p, q) = (colour(a, shared, x, y), colour(b, shared, x, y));
            (0..3).all(|c| p[c].abs_diff(q[c]) <= 2 * encode::PALETTE_TOLERANCE)
        }
    }
}

/// Where `a` and `b` (of one length) first differ, compared eight bytes at a time.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("eight bytes"));
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail = ca.remainder().len();
    match ca.zip(cb).position(|(p, q)| word(p) != word(q)) {
        Some(chunk) => (chunk * 8..chunk * 8 + 8).find(|&i| a[i] != b[i]),
        None => (a.len() - tail..a.len()).find(|&i| a[i] != b[i]),
    }
}

/// Where `a` and `b` (of one length) last differ, compared eight bytes at a time.
fn last_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("eight bytes"));
    let (ca, cb) = (a.rchunks_exact(8), b.rchunks_exact(8));
    let head = ca.remainder().len();
    match ca.zip(cb).position(|(p, q)| word(p) != word(q)) {
        Some(chunk) => {
            let end = a.len() - chunk * 8;
            (end - 8..end).rev().find(|&i| a[i] != b[i])
        }
        None => (0..head).rev().find(|&i| a[i] != b[i]),
    }
}

/// The smallest rectangle (x0, y0, x1, y1, exclusive ends) where `a` and `b` differ in
/// colour; `None` when they are the same picture.
fn changed(a: &Canvas, b: &Canvas, shared: &[u8]) -> Option<(usize, usize, usize, usize)> {
    let w = a.width;
    let by_index = a.local.is_none() && b.local.is_none();
    let (mut x0, mut y0, mut x1, mut y1) = (w, usize::MAX, 0, 0);
    for y in 0..a.height {
        let (ra, rb) = (a.row(y), b.row(y));
        let span = if by_index {
            if ra == rb {
                continue;
            }
            first_difference(ra, rb).zip(last_difference(ra, rb))
        } else {
            let differs = |x: &usize| !same(a, b, shared, *x, y);
            (0..w)
                .find(differs)
                .map(|first| (first, (first..w).rev().find(differs).unwrap_or(first)))
        };
        if let Some((first, last)) = span {
            x0 = x0.min(first);
            x1 = x1.max(last + 1);
            y0 = y0.min(y);
            y1 = y + 1;
        }
    }
    (y0 != usize::MAX).then_some((x0, y0, x1, y1))
}

/// Render every frame's canvas in turn, calling `each` with the shared palette so far,
/// the previous canvas (if any) and this one.
fn for_each_canvas(
    renderer: &Renderer,
    frames: &[Frame],
    mut each: impl FnMut(usize, &[u8], Option<&Canvas>, &Canvas) -> Result<(), RenderError>,
) -> Result<Vec<u8>, RenderError> {
    let mut composer = Composer {
        renderer,
        board: Indexed::default(),
        bars: HashMap::new(),
        shared: Vec::with_capacity(3 * 256),
        entries: HashMap::new(),
        table_for: Vec::new(),
        table: Vec::new(),
    };
    let (mut previous, mut current) = (Canvas::default(), Canvas::default());
    for (i, frame) in frames.iter().enumerate() {
        crate::render::cancel::check()?;
        composer.canvas(frame, &mut current)?;
        if i > 0 && (current.width, current.height) != (previous.width, previous.height) {
            // Frames of one animation share a size; options that change it are the caller's
            // error.
            return Err(RenderError::Encode(
                "the frames of an animation differ in size".to_string(),
            ));
        }
        each(i, &composer.shared, (i > 0).then_some(&previous), &current)?;
        std::mem::swap(&mut previous, &mut current);
    }
    Ok(composer.shared)
}

/// `frames` as an animated GIF, played once or `looped`.
pub fn gif(renderer: &Renderer, frames: &[Frame], looped: bool) -> Result<Vec<u8>, RenderError> {
    let failed = |_| RenderError::Encode("the GIF encoder failed".to_string());
    // Frames are compressed as they come; the shared palette, which grows, is written
    // when all are known.
    let mut encoded: Vec<gif::Frame<'static>> = Vec::with_capacity(frames.len());
    let mut size = (0u16, 0u16);
    let mut buffer = Vec::new();
    let mut lzw = Lzw::default();
    let shared = for_each_canvas(renderer, frames, |i, shared, previous, canvas| {
        size = (canvas.width as u16, canvas.height as u16);
        let (x0, y0, x1, y1) = match previous {
            None => (0, 0, canvas.width, canvas.height),
            Some(p) => changed(p, canvas, shared).unwrap_or((0, 0, 1, 1)),
        };
        let transparent = match &canvas.local {
            None => Some(SHARED as u8),
            Some(palette) => (palette.len() < 3 * 256).then_some((palette.len() / 3) as u8),
        };
        buffer.clear();
        for y in y0..y1 {
            let now = &canvas.row(y)[x0..x1];
            match (previous, transparent) {
                (Some(p), Some(t)) if p.local.is_none() && canvas.local.is_none() => buffer.extend(
                    p.row(y)[x0..x1]
                        .iter()
                        .zip(now)
                        .map(|(&was, &is)| if was == is { t } else { is }),
                ),
                (Some(p), Some(t)) => buffer.extend(
                    (x0..x1)
                        .zip(now)
                        .map(|(x, &is)| if same(p, canvas, shared, x, y) { t } else { is }),
                ),
                _ => buffer.extend_from_slice(now),
            }
        }
        let palette = canvas.local.clone().map(|mut p| {
            p.resize(3 * 256, 0);
            p
        });
        let mut data = Vec::with_capacity(buffer.len() / 8);
        lzw.encode(&buffer, &mut data);
        encoded.push(gif::Frame {
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            delay: frames[i].delay,
            dispose: gif::DisposalMethod::Keep,
            transparent: transparent.filter(|_| previous.is_some()),
            palette,
            buffer: std::borrow::Cow::Owned(data),
            ..gif::Frame::default()
        });
        Ok(())
    })?;
    if encoded.is_empty() {
        return Err(RenderError::Encode("an animation needs frames".to_string()));
    }
    let mut global = shared;
    global.resize(3 * 256, 0);
    let mut e = gif::Encoder::new(Vec::new(), size.0, size.1, &global).map_err(failed)?;
    if looped {
        e.set_repeat(gif::Repeat::Infinite).map_err(failed)?;
    }
    for frame in &encoded {
        e.write_lzw_pre_encoded_frame(frame).map_err(failed)?;
    }
    e.into_inner().map_err(failed)
}

/// `frames` as an animated PNG (APNG) in full colour, played once or `looped`.
pub fn apng(renderer: &Renderer, frames: &[Frame], looped: bool) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    let mut scratch = encode::Scratch::default();
    let mut rgba = Vec::new();
    let mut sequence = 0u32;
    for_each_canvas(renderer, frames, |i, shared, previous, canvas| {
        let (x0, y0, x1, y1) = match previous {
            None => (0, 0, canvas.width, canvas.height),
            Some(p) => changed(p, canvas, shared).unwrap_or((0, 0, 1, 1)),
        };
        if previous.is_none() {
            out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
            let mut ihdr = Vec::with_capacity(13);
            ihdr.extend_from_slice(&(canvas.width as u32).to_be_bytes());
            ihdr.extend_from_slice(&(canvas.height as u32).to_be_bytes());
            ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8 bits, RGBA
            encode::chunk(&mut out, b"IHDR", &ihdr);
            let mut actl = Vec::with_capacity(8);
            actl.extend_from_slice(&(frames.len() as u32).to_be_bytes());
            actl.extend_from_slice(&u32::from(!looped).to_be_bytes());
            encode::chunk(&mut out, b"acTL", &actl);
        }
        // The rectangle's pixels; unchanged ones transparent, laid over the last frame.
        rgba.clear();
        for y in y0..y1 {
            for x in x0..x1 {
                match previous.is_some_and(|p| same(p, canvas, shared, x, y)) {
                    true => rgba.extend_from_slice(&[0, 0, 0, 0]),
                    false => {
                        rgba.extend_from_slice(&colour(canvas, shared, x, y));
                        rgba.push(255);
                    }
                }
            }
        }
        let mut fctl = Vec::with_capacity(26);
        fctl.extend_from_slice(&sequence.to_be_bytes());
        for v in [x1 - x0, y1 - y0, x0, y0] {
            fctl.extend_from_slice(&(v as u32).to_be_bytes());
        }
        fctl.extend_from_slice(&frames[i].delay.to_be_bytes());
        fctl.extend_from_slice(&100u16.to_be_bytes());
        fctl.extend_from_slice(&[0, u8::from(previous.is_some())]); // keep; source, then over
        encode::chunk(&mut out, b"fcTL", &fctl);
        sequence += 1;
        let data = encode::zlib_rows(&rgba, (x1 - x0) * 4, &mut scratch);
        if previous.is_none() {
            encode::chunk(&mut out, b"IDAT", data);
        } else {
            let mut fdat = Vec::with_capacity(4 + data.len());
            fdat.extend_from_slice(&sequence.to_be_bytes());
            fdat.extend_from_slice(data);
            encode::chunk(&mut out, b"fdAT", &fdat);
            sequence += 1;
        }
        Ok(())
    })?;
    if out.is_empty() {
        return Err(RenderError::Encode("an animation needs frames".to_string()));
    }
    encode::chunk(&mut out, b"IEND", &[]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_found_at_every_offset() {
        for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 100] {
            let a = vec![3u8; len];
            assert_eq!(first_difference(&a, &a), None);
            assert_eq!(last_difference(&a, &a), None);
            for i in 0..len {
                for j in i..len {
                    let mut b = a.clone();
                    b[i] = 9;
                    b[j] = 9;
                    assert_eq!(first_difference(&a, &b), Some(i), "{len} {i} {j}");
                    assert_eq!(last_difference(&a, &b), Some(j), "{len} {i} {j}");
                }
            }
        }
    }
}
