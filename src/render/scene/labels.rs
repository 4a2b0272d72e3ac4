//! The coordinate labels, glyph by glyph: in the margin (centred, clear of the frame) or
//! on the board (in the corners of the edge squares), and whether their ink stays in the
//! margin (then the painters draw them with the board's base).

use super::grid::{Grid, Layout};
use super::parts::{Label, Rect};
use crate::chess::piece::Color;
use crate::chess::position::Square;
use crate::render::art::font::LabelFont;
use crate::render::spec::options::Coordinates;
use crate::render::spec::theme::{Rgba, Theme};

/// Labels whose digits would be under this many pixels tall are not drawn: unreadable.
pub(super) const MIN_CAP_PX: f32 = 4.0;

/// The coordinate labels, glyph by glyph.
pub(super) fn labels(
    coordinates: Coordinates,
    grid: &Grid,
    l: &Layout,
    theme: &Theme,
    font: &LabelFont,
) -> Vec<Label> {
    let mut labels = Labels {
        font,
        cap: font.cap_height() / font.units_per_em(),
        out: Vec::new(),
    };
    match coordinates {
        Coordinates::Outside => labels.outside(grid, l, theme),
        Coordinates::Inside => labels.inside(grid, theme),
        Coordinates::None => {}
    }
    labels.out
}

/// Where a label's ink goes across: centred on an x, starting at one, or ending at one.
pub(super) enum At {
    Centre(f32),
    Left(f32),
    Right(f32),
}

/// Labels being placed, glyph by glyph.
pub(super) struct Labels<'a> {
    font: &'a LabelFont,
    /// The cap height in ems.
    cap: f32,
    out: Vec<Label>,
}

impl Labels<'_> {
    /// Place `ch` with its ink `at` across and its baseline at `baseline`, its capitals
    /// `cap_px` tall.
    fn put(&mut self, ch: char, at: At, baseline: f32, cap_px: f32, color: Rgba) {
        let Some(glyph) = self.font.glyph(ch) else {
            return;
        };
        let scale = cap_px / self.cap / self.font.units_per_em();
        let (ink_l, ink_r) = glyph.ink_x;
        let x = match at {
            At::Centre(cx) => cx - (ink_l + ink_r) / 2.0 * scale,
            At::Left(left) => left - ink_l * scale,
            At::Right(right) => right - ink_r * scale,
        };
        self.out.push(Label {
            ch,
            x,
            y: baseline,
            scale,
            color,
        });
    }

    /// Place a rank number (`1`…`16`) as [`Labels::put`] places one character: two digits
    /// set as a word, their ink a small gap apart, made smaller when wider
    /// than `room` pixels.
    fn put_number(&mut self, n: u8, at: At, baseline: f32, cap_px: f32, room: f32, color: Rgba) {
        let digit = |d: u8| char::from(b'0' + d);
        if n < 10 {
            return self.put(digit(n), at, baseline, cap_px, color);
        }
        let (first, second) = (digit(n / 10 % 10), digit(n % 10));
        let (Some(a), Some(b)) = (self.font.glyph(first), self.font.glyph(second)) else {
            return;
        };
        let (wa, wb) = (a.ink_x.1 - a.ink_x.0, b.ink_x.1 - b.ink_x.0);
        let gap = self.cap * self.font.units_per_em() * 0.12;
        let natural = (wa + gap + wb) * cap_px / self.cap / self.font.units_per_em();
        let cap_px = if natural > room { cap_px * room / natural } else { cap_px };
        let scale = cap_px / self.cap / self.font.units_per_em();
        let width = (wa + gap + wb) * scale;
        let left = match at {
            At::Centre(cx) => cx - width / 2.0,
            At::Left(left) => left,
            At::Right(right) => right - width,
        };
        self.put(first, At::Left(left), baseline, cap_px, color);
        let second_left = left + (wa + gap) * scale;
        self.put(second, At::Left(second_left), baseline, cap_px, color);
    }

    /// Labels centred in the margin, clear of the frame; the text height is about half
    /// the margin and never more than a third of a square.
    fn outside(&mut self, grid: &Grid, l: &Layout, theme: &Theme) {
        let sq = grid.square as f32;
        let margin = l.margin.saturating_sub(l.frame) as f32;
        let cap_px = (margin * 0.5).min(sq * 0.34);
        if cap_px < MIN_CAP_PX {
            return;
        }
        let below = (grid.board.y + grid.board.h + l.frame) as f32;
        // Letters mix x-height and ascenders; centring the cap height reads as centred.
        let band_end = (grid.board.y + grid.board.h + l.margin) as f32;
        let baseline = (below + band_end) / 2.0 + cap_px / 2.0;
        let region = grid.region;
        for f in region.low.file..=region.high.file {
            let r = grid.rect(Square::new(f, region.low.rank));
            let cx = r.x as f32 + sq / 2.0;
            let ch = Square::new(f, 0).file_char();
            self.put(ch, At::Centre(cx), baseline, cap_px, theme.label);
        }
        let cx = margin / 2.0;
        for rank in region.low.rank..=region.high.rank {
            let r = grid.rect(Square::new(region.low.file, rank));
            let baseline = r.y as f32 + sq / 2.0 + cap_px / 2.0;
            let number = Square::new(0, rank).rank_number();
            let room = margin * 0.8;
            self.put_number(number, At::Centre(cx), baseline, cap_px, room, theme.label);
        }
    }

    /// Labels on the board: ranks in the top-left corner of the left-hand column, files in
    /// the bottom-right corner of the bottom row, in the other square colour.
    fn inside(&mut self, grid: &Grid, theme: &Theme) {
        let sq = grid.square as f32;
        let cap_px = sq * 0.2;
        if cap_px < MIN_CAP_PX {
            return;
        }
        let pad = (sq * 0.07).max(1.0);
        // On hatched (printed) boards both square colours are white: labels in ink.
        let other = |s: Square| match (theme.hatched, s.is_dark()) {
            (true, _) => theme.label,
            (false, true) => theme.light,
            (false, false) => theme.dark,
        };
        let (low, high) = (grid.region.low, grid.region.high);
        let (bottom_rank, left_file) = match grid.bottom {
            Color::White => (low.rank, low.file),
            Color::Black => (high.rank, high.file),
        };
        for f in low.file..=high.file {
            let s = Square::new(f, bottom_rank);
            let r = grid.rect(s);
            let right = (r.x + r.w) as f32 - pad;
            // Leave room under the baseline for the descender of g and j.
            let baseline = (r.y + r.h) as f32 - pad - cap_px * 0.22;
            self.put(s.file_char(), At::Right(right), baseline, cap_px, other(s));
        }
        for rank in low.rank..=high.rank {
            let s = Square::new(left_file, rank);
            let r = grid.rect(s);
            let (left, baseline) = (r.x as f32 + pad, r.y as f32 + pad + cap_px);
            let number = s.rank_number();
            self.put_number(number, At::Left(left), baseline, cap_px, sq * 0.45, other(s));
        }
    }
}

/// Whether the ink of every one of `labels` lies outside `board`.
pub(super) fn in_margin(labels: &[Label], board: Rect, font: &LabelFont) -> bool {
    // A label's ink lies within its glyph's horizontal extent and between the baseline and
    // the cap height (labels are digits and the letters a–j; descenders only go further
    // from the board).
    let (left, top) = (board.x as f32, board.y as f32);
    let (right, bottom) = ((board.x + board.w) as f32, (board.y + board.h) as f32);
    labels.iter().all(|l| {
        let (ink0, ink1) = font.glyph(l.ch).map_or((0.0, 0.0), |g| g.ink_x);
        let (x0, x1) = (l.x + ink0 * l.scale, l.x + ink1 * l.scale);
        let (y0, y1) = (l.y - font.cap_height() * l.scale, l.y);
        x1 <= left || x0 >= right || y1 <= top || y0 >= bottom
    })
}
