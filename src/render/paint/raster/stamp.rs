//! Stamps: a shape (mark, arrow, circle, cross) painted once on transparent pixels at
//! the origin of the pixels it reaches and kept in a cache of its own ([`Stamps`]), then
//! blended wherever a scene puts it; and the keys and footprints the indexed composer
//! reads of them. Part of the raster backend, which paints what has no stamp in place.

use super::shapes::{blend_into, clip, paint_shape, reach};
use crate::cache::{ByteCache, Usage, Weight};
use crate::render::scene::{Point, Rect, Run, Shape};
use crate::render::spec::theme::Rgba;
use resvg::tiny_skia::PixmapMut;
use std::collections::HashMap;
use std::sync::Arc;

/// Most pixels a shape's stamp may span (its reach, before the unpainted parts are
/// dropped); a larger shape (a long diagonal arrow on a very large board) is painted in
/// place.
const MAX_STAMP_PIXELS: u64 = 1 << 20;

thread_local! {
    /// The pixels a stamp is painted on before its runs are copied out, kept per thread
    /// (at most [`MAX_STAMP_PIXELS`] × 4 bytes, 4 MiB): a stamp painted on freshly mapped
    /// pixels paid a page fault every 4 KiB, which two threads paid in turn.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };

    /// The stamps this thread's render in progress has used, by key, while
    /// [`holding_stamps`] runs: a render asks for each of its shapes' stamps several times
    /// (footprint, cells, dirty runs), and 64 arrows at 2048 px outgrow the stamp cache,
    /// which then evicted them between the asks (290 paintings for 64 arrows).
    static HELD: std::cell::RefCell<Option<HashMap<Vec<u8>, Arc<Stamp>>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f` (one render) with every stamp it uses held until it ends, whatever the stamp
/// cache evicts meanwhile.
pub(crate) fn holding_stamps<T>(f: impl FnOnce() -> T) -> T {
    /// Lets go of the held stamps when the outermost render ends, even by a panic.
    struct Release(bool);
    impl Drop for Release {
        fn drop(&mut self) {
            if self.0 {
                HELD.with(|held| *held.borrow_mut() = None);
            }
        }
    }
    let outermost = HELD.with(|held| {
        let mut held = held.borrow_mut();
        let outermost = held.is_none();
        if outermost {
            *held = Some(HashMap::new());
        }
        outermost
    });
    let _release = Release(outermost);
    f()
}

/// A shape painted once on transparent pixels at the origin of the pixels it reaches:
/// each row's painted run, premultiplied RGBA. Blending it where a scene puts the shape
/// gives what painting the shape there gives (tiny-skia's rasteriser is exact under whole
/// pixel translation), and touches only the painted pixels.
#[derive(Debug)]
pub(crate) struct Stamp {
    /// Per row, the painted columns `start..end` (empty when none).
    rows: Vec<(u32, u32)>,
    /// The runs' pixels, row after row.
    pixels: Vec<u8>,
}

impl Weight for Stamp {
    fn weight(&self) -> usize {
        self.rows.capacity() * 8 + self.pixels.capacity()
    }
}

impl Stamp {
    /// `shape` (already moved to the origin) painted on `w` × `h` transparent pixels: in
    /// this thread's scratch (see [`SCRATCH`]), then the painted runs copied into a stamp
    /// of exactly their size.
    fn of(shape: &Shape, w: u32, h: u32) -> Stamp {
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let len = w as usize * h as usize * 4;
            scratch.clear();
            scratch.resize(len, 0);
            let Some(mut pixmap) = PixmapMut::from_bytes(&mut scratch[..len], w, h) else {
                return Stamp {
                    rows: Vec::new(),
                    pixels: Vec::new(),
                };
            };
            paint_shape(&mut pixmap, shape);
            let rows: Vec<(u32, u32)> = scratch
                .chunks_exact(w as usize * 4)
                .map(painted_run)
                .collect();
            let total = rows.iter().map(|&(s, e)| (e - s) as usize * 4).sum();
            let mut pixels = Vec::with_capacity(total);
            for (row, &(start, end)) in scratch.chunks_exact(w as usize * 4).zip(&rows) {
                pixels.extend_from_slice(&row[start as usize * 4..end as usize * 4]);
            }
            Stamp { rows, pixels }
        })
    }

    /// Blend onto `pixmap` with the stamp's origin at (`x`, `y`), clipped to the pixmap
    /// and to `within`.
    pub(super) fn blend(&self, pixmap: &mut PixmapMut, x: u32, y: u32, within: Option<&[Run]>) {
        let (w, h) = (pixmap.width(), pixmap.height());
        let stride = w as usize * 4;
        let data = pixmap.data_mut();
        let mut at = 0;
        for (row, &(start, end)) in (y..h).zip(&self.rows) {
            let painted = &self.pixels[at..at + (end - start) as usize * 4];
            at += painted.len();
            let (from, to) = (x.saturating_add(start), x.saturating_add(end).min(w));
            if from >= to {
                continue;
            }
            let rect = Rect {
                x: from,
                y: row,
                w: to - from,
                h: 1,
            };
            clip(within, rect, &mut |_, x0, x1| {
                let src = &painted[(x0 - from) as usize * 4..(x1 - from) as usize * 4];
                let dst = &mut data[row as usize * stride + x0 as usize * 4..];
                blend_into(dst, stride, src, src.len(), 1);
            });
        }
    }

    /// Blend onto `pixmap` with the stamp's origin at (`x`, `y`), which may lie before
    /// the pixmap's origin (a part of a stamp cut out for one cell), clipped to the pixmap.
    pub(super) fn blend_at(&self, pixmap: &mut PixmapMut, (x, y): (i64, i64)) {
        let (w, h) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
        let stride = w as usize * 4;
        let data = pixmap.data_mut();
        let mut at = 0;
        for (row, &(start, end)) in (y..).zip(&self.rows) {
            let painted = &self.pixels[at..at + (end - start) as usize * 4];
            at += painted.len();
            if row >= h {
                break;
            }
            let (from, to) = ((x + i64::from(start)).max(0), (x + i64::from(end)).min(w));
            if row < 0 || from >= to {
                continue;
            }
            let skip = (from - x - i64::from(start)) as usize * 4;
            let src = &painted[skip..skip + (to - from) as usize * 4];
            let dst = &mut data[row as usize * stride + from as usize * 4..];
            blend_into(dst, stride, src, src.len(), 1);
        }
    }
}

/// The painted run of one row of premultiplied RGBA painted on transparent pixels: the
/// columns from the first pixel that is not zero to the last (`(0, 0)` when none). Reads
/// eight bytes at a time: most of a stamp's rows are mostly unpainted.
fn painted_run(row: &[u8]) -> (u32, u32) {
    let pixels = row.len() / 4;
    let painted = |i: usize| row[i * 4..i * 4 + 4] != [0; 4];
    let word = |c: &[u8]| u64::from_ne_bytes(c.try_into().expect("8 bytes")) != 0;
    // Pairs of pixels first, then the pixel within the pair; an odd last pixel alone.
    let mut pairs = row.chunks_exact(8);
    let odd_last = (pixels % 2 == 1).then(|| pixels - 1);
    let first = pairs.clone().position(word).map(|p| p * 2).or(odd_last);
    let Some(start) = first.and_then(|f| (f..pixels).find(|&i| painted(i))) else {
        return (0, 0);
    };
    let last = match odd_last {
        Some(i) if painted(i) => i,
        _ => pairs.rposition(word).map_or(start, |p| p * 2 + 1),
    };
    let end = (start..=last).rev().find(|&i| painted(i)).map_or(start, |e| e + 1);
    (start as u32, end as u32)
}

/// The stamps kept between renders, keyed by their shape's exact description relative to
/// its origin.
#[derive(Debug, Clone)]
pub(crate) struct Stamps(ByteCache<Vec<u8>, Arc<Stamp>>);

impl Stamps {
    /// A cache of at most `bytes` bytes of stamps.
    pub(crate) fn new(bytes: u64) -> Stamps {
        Stamps(ByteCache::new("stamps", bytes))
    }

    /// How full it is.
    pub(crate) fn usage(&self) -> Usage {
        self.0.usage()
    }
}

/// The stamp of `shape` in a `w` × `h` image from the stamp cache, and where its origin
/// goes; `None` for a shape reaching too many pixels. The stamp is cut where the image
/// ends, as painting in place cuts the path there (tiny-skia clips curves by splitting
/// them, which moves their edges a little; see [`cut_at_edges`]).
pub(super) fn stamp(
    stamps: &Stamps,
    shape: &Shape,
    (w, h): (u32, u32),
) -> Option<(Arc<Stamp>, u32, u32)> {
    let mut at = reach(shape);
    at.w = at.w.min(w.saturating_sub(at.x));
    at.h = at.h.min(h.saturating_sub(at.y));
    if at.w == 0 || at.h == 0 || u64::from(at.w) * u64::from(at.h) > MAX_STAMP_PIXELS {
        return None;
    }
    let (dx, dy) = (at.x as f32, at.y as f32);
    let key = stamp_key(shape, (dx, dy), (at.w, at.h));
    let held = HELD.with(|held| held.borrow().as_ref().and_then(|h| h.get(&key).cloned()));
    if let Some(stamp) = held {
        return Some((stamp, at.x, at.y));
    }
    let stamp = stamps.0.get_with(key.clone(), || {
        Arc::new(Stamp::of(&moved(shape, dx, dy), at.w, at.h))
    });
    HELD.with(|held| {
        if let Some(held) = held.borrow_mut().as_mut() {
            held.insert(key, stamp.clone());
        }
    });
    Some((stamp, at.x, at.y))
}

/// The painted run of each row of `shape` inside `w` × `h`, as one-row rectangles given
/// to `out`; `false` (nothing given) when the shape has no stamp, and the caller must
/// bound it another way.
pub(crate) fn footprint(
    stamps: &Stamps,
    shape: &Shape,
    (w, h): (u32, u32),
    out: &mut impl FnMut(Rect),
) -> bool {
    let Some((stamp, x, y)) = stamp(stamps, shape, (w, h)) else {
        return false;
    };
    for (row, &(start, end)) in (y..h).zip(&stamp.rows) {
        let (from, to) = (x.saturating_add(start), x.saturating_add(end).min(w));
        if from < to {
            out(Rect {
                x: from,
                y: row,
                w: to - from,
                h: 1,
            });
        }
    }
    true
}

/// `shape` moved by (−`dx`, −`dy`).
pub(super) fn moved(shape: &Shape, dx: f32, dy: f32) -> Shape {
    let at = |p: &Point| (p.0 - dx, p.1 - dy);
    match shape {
        Shape::Rect { rect, color } => Shape::Rect {
            rect: Rect {
                x: rect.x.saturating_sub(dx as u32),
                y: rect.y.saturating_sub(dy as u32),
                ..*rect
            },
            color: *color,
        },
        Shape::Polygon { points, color } => Shape::Polygon {
            points: points.iter().map(at).collect(),
            color: *color,
        },
        Shape::Line {
            points,
            width,
            color,
        } => Shape::Line {
            points: points.iter().map(at).collect(),
            width: *width,
            color: *color,
        },
        Shape::Ring {
            center,
            radius,
            width,
            color,
        } => Shape::Ring {
            center: at(center),
            radius: *radius,
            width: *width,
            color: *color,
        },
        Shape::Disc {
            center,
            radius,
            color,
        } => Shape::Disc {
            center: at(center),
            radius: *radius,
            color: *color,
        },
        Shape::Glow {
            center,
            radius,
            stops,
        } => Shape::Glow {
            center: at(center),
            radius: *radius,
            stops: stops.clone(),
        },
    }
}

/// The exact description of [`moved`]`(shape, dx, dy)` painted on `w` × `h` pixels.
fn stamp_key(shape: &Shape, origin: (f32, f32), (w, h): (u32, u32)) -> Vec<u8> {
    let mut key = Vec::with_capacity(64);
    key.extend_from_slice(&w.to_le_bytes());
    key.extend_from_slice(&h.to_le_bytes());
    describe(shape, origin, &mut key);
    key
}

/// Append the exact description of `shape` moved by (−`dx`, −`dy`) to `key`: shapes with
/// equal descriptions paint the same pixels relative to their origins (for cache keys).
pub(crate) fn describe(shape: &Shape, (dx, dy): (f32, f32), key: &mut Vec<u8>) {
    let num = |key: &mut Vec<u8>, v: f32| key.extend_from_slice(&v.to_bits().to_le_bytes());
    let colour = |key: &mut Vec<u8>, c: &Rgba| key.extend_from_slice(&[c.r, c.g, c.b, c.a]);
    let points = |key: &mut Vec<u8>, points: &[Point]| {
        key.extend_from_slice(&(points.len() as u32).to_le_bytes());
        for p in points {
            num(key, p.0 - dx);
            num(key, p.1 - dy);
        }
    };
    // The round shapes: their tag, centre, radius and other sizes, and their colour (a
    // glow's colours are its stops, which follow).
    let round = |key: &mut Vec<u8>, tag: u8, center: &Point, sizes: &[f32], color: Option<_>| {
        key.push(tag);
        points(key, std::slice::from_ref(center));
        for &v in sizes {
            num(key, v);
        }
        if let Some(color) = color {
            colour(key, color);
        }
    };
    match shape {
        Shape::Rect { rect, color } => {
            key.push(0);
            let (x, y) = (rect.x as f32 - dx, rect.y as f32 - dy);
            for v in [x, y, rect.w as f32, rect.h as f32] {
                num(key, v);
            }
            colour(key, color);
        }
        Shape::Polygon { points: p, color } => {
            key.push(1);
            points(key, p);
            colour(key, color);
        }
        Shape::Line {
            points: p,
            width,
            color,
        } => {
            key.push(2);
            points(key, p);
            num(key, *width);
            colour(key, color);
        }
        Shape::Ring {
            center,
            radius,
            width,
            color,
        } => round(key, 3, center, &[*radius, *width], Some(color)),
        Shape::Disc {
            center,
            radius,
            color,
        } => round(key, 4, center, &[*radius], Some(color)),
        Shape::Glow {
            center,
            radius,
            stops,
        } => {
            round(key, 5, center, &[*radius], None);
            for (offset, c) in stops {
                num(key, *offset);
                colour(key, c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::painted_run;

    #[test]
    fn a_painted_run_spans_the_first_to_the_last_painted_pixel() {
        // Every placement of one or two painted pixels in rows of 1 to 7 pixels, against
        // a pixel-by-pixel search.
        for pixels in 1..8usize {
            for a in 0..=pixels {
                for b in a..=pixels {
                    let mut row = vec![0u8; pixels * 4];
                    for at in [a, b].into_iter().filter(|&i| i < pixels) {
                        row[at * 4 + (at % 4)] = 9;
                    }
                    let painted: Vec<usize> = (0..pixels)
                        .filter(|&i| row[i * 4..i * 4 + 4] != [0; 4])
                        .collect();
                    let want = match (painted.first(), painted.last()) {
                        (Some(&s), Some(&e)) => (s as u32, e as u32 + 1),
                        _ => (0, 0),
                    };
                    assert_eq!(painted_run(&row), want, "{pixels} px, {a} and {b}");
                }
            }
        }
    }
}
