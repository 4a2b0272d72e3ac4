//! Compact SVG path data: relative commands over a fixed grid.
//!
//! Owns the text form of outlines that the SVG backend repeats (pieces, label glyphs, board
//! squares). Coordinates are integers on a grid of `10^-decimals` units, so relative steps
//! are exact differences and rounding never accumulates; the writer drops repeated command
//! letters and spaces that SVG's grammar does not need. The raster backend draws the same
//! grid-snapped geometry, so PNG and SVG stay identical.

/// Writes one path's data with relative commands. Coordinates are grid integers.
#[derive(Debug, Clone)]
pub struct PathWriter {
    out: String,
    decimals: u32,
    current: (i64, i64),
    start: (i64, i64),
    last: u8,
    /// Whether the last thing written was a number, and whether it had a decimal point.
    number: Option<bool>,
}

impl PathWriter {
    /// A writer whose grid unit is `10^-decimals` (0: whole numbers; 1: tenths).
    pub fn new(decimals: u32) -> PathWriter {
        PathWriter {
            out: String::new(),
            decimals,
            current: (0, 0),
            start: (0, 0),
            last: 0,
            number: None,
        }
    }

    /// Start relative to the given point (where a previous path left the pen).
    pub fn starting_at(mut self, point: (i64, i64)) -> PathWriter {
        self.current = point;
        self.start = point;
        self
    }

    /// The pen: where the next relative move is measured from.
    pub fn pen(&self) -> (i64, i64) {
        self.current
    }

    /// Append relative data written earlier by another writer that started where this one's
    /// pen is and left its own pen at `pen` after a final close (a glyph written once,
    /// placed many times: relative data does not change with its origin).
    pub fn append_closed(&mut self, data: &str, pen: (i64, i64)) {
        self.out.push_str(data);
        self.current = pen;
        self.start = pen;
        self.last = b'z';
        self.number = None;
    }

    /// The path data written so far.
    pub fn finish(self) -> String {
        self.out
    }

    fn command(&mut self, c: u8) {
        // After `m`, repeated pairs mean `l`: only drawing commands may repeat implicitly.
        if c != self.last || c == b'm' || c == b'z' {
            self.out.push(char::from(c));
            self.number = None;
        }
        self.last = c;
    }

    fn number(&mut self, n: i64) {
        // Digits straight into the output, no allocation: sign, whole part (left out when
        // zero before a fraction, as in `.5`), then the fraction without trailing zeros.
        let scale = 10_u64.pow(self.decimals);
        let abs = n.unsigned_abs();
        let (whole, mut frac) = (abs / scale, abs % scale);
        let mut buf = [0u8; 48];
        let mut len = 0;
        if n < 0 {
            buf[len] = b'-';
            len += 1;
        }
        if whole != 0 || frac == 0 {
            let mut digits = [0u8; 20];
            let (mut w, mut k) = (whole, 0);
            loop {
                digits[k] = b'0' + (w % 10) as u8;
                k += 1;
                w /= 10;
                if w == 0 {
                    break;
                }
            }
            for d in digits[..k].iter().rev() {
                buf[len] = *d;
                len += 1;
            }
        }
        let dotted = frac != 0;
        if dotted {
            buf[len] = b'.';
            len += 1;
            let mut place = scale / 10;
            while frac != 0 {
                buf[len] = b'0' + (frac / place) as u8;
                len += 1;
                frac %= place;
                place /= 10;
            }
        }
        let text = &buf[..len];
        let needs_space = match self.number {
            None => false,
            Some(prev_dotted) => !(text[0] == b'-' || (text[0] == b'.' && prev_dotted)),
        };
        if needs_space {
            self.out.push(' ');
        }
        // Only ASCII digits, '-' and '.' were written.
        self.out
            .push_str(std::str::from_utf8(text).unwrap_or_default());
        self.number = Some(dotted);
    }

    fn point(&mut self, p: (i64, i64)) {
        self.number(p.0 - self.current.0);
        self.number(p.1 - self.current.1);
    }

    /// Begin a subpath at `p`.
    pub fn move_to(&mut self, p: (i64, i64)) {
        self.command(b'm');
        self.point(p);
        self.current = p;
        self.start = p;
    }

    /// A straight line to `p`.
    pub fn line_to(&mut self, p: (i64, i64)) {
        let (dx, dy) = (p.0 - self.current.0, p.1 - self.current.1);
        if dy == 0 {
            self.command(b'h');
            self.number(dx);
        } else if dx == 0 {
            self.command(b'v');
            self.number(dy);
        } else {
            self.command(b'l');
            self.point(p);
        }
        self.current = p;
    }

    /// A quadratic Bézier through control `c` to `p`.
    pub fn quad_to(&mut self, c: (i64, i64), p: (i64, i64)) {
        self.command(b'q');
        self.point(c);
        self.point(p);
        self.current = p;
    }

    /// A cubic Bézier through controls `c1`, `c2` to `p`.
    pub fn cubic_to(&mut self, c1: (i64, i64), c2: (i64, i64), p: (i64, i64)) {
        self.command(b'c');
        self.point(c1);
        self.point(c2);
        self.point(p);
        self.current = p;
    }

    /// Close the subpath; the pen returns to its start.
    pub fn close(&mut self) {
        self.command(b'z');
        self.current = self.start;
    }
}

/// One segment of an absolute outline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Segment {
    /// Begin a subpath.
    Move(f64, f64),
    /// Straight line.
    Line(f64, f64),
    /// Quadratic Bézier: control, end.
    Quad(f64, f64, f64, f64),
    /// Cubic Bézier: two controls, end.
    Cubic(f64, f64, f64, f64, f64, f64),
    /// Close the subpath.
    Close,
}

/// A glyph's outline as the font gives it: segments in font units (y up). The one outline
/// builder: the label font snaps it to the grid, free text (`font::TextFace`) fills
/// it or writes it as SVG, a system face's glyphs are kept in it (`font_held`).
#[derive(Debug, Default)]
pub(crate) struct Outline(pub(crate) Vec<Segment>);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Segment::Move(x.into(), y.into()));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(Segment::Line(x.into(), y.into()));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let [a, b, c, d] = [x1, y1, x, y].map(f64::from);
        self.0.push(Segment::Quad(a, b, c, d));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let [a, b, c, d, e, f] = [x1, y1, x2, y2, x, y].map(f64::from);
        self.0.push(Segment::Cubic(a, b, c, d, e, f));
    }
    fn close(&mut self) {
        self.0.push(Segment::Close);
    }
}

/// Parse absolute path data made of `M L Q C Z` (usvg's normal form). `None` for anything
/// else (relative or arc commands, malformed numbers), so callers can keep the text as is.
pub fn parse_absolute(d: &str) -> Option<Vec<Segment>> {
    let bytes = d.as_bytes();
    let mut i = 0;
    let mut numbers = Vec::new();
    let mut segments = Vec::new();
    let mut command = 0u8;
    let flush = |command: u8, numbers: &mut Vec<f64>, segments: &mut Vec<Segment>| {
        let arity = match command {
            b'M' | b'L' => 2,
            b'Q' => 4,
            b'C' => 6,
            b'Z' => 0,
            _ => return numbers.is_empty(),
        };
        if arity == 0 {
            segments.push(Segment::Close);
            return numbers.is_empty();
        }
        if numbers.is_empty() || !numbers.len().is_multiple_of(arity) {
            return false;
        }
        for (k, n) in numbers.chunks(arity).enumerate() {
            segments.push(match (command, k) {
                (b'M', 0) => Segment::Move(n[0], n[1]),
                (b'M' | b'L', _) => Segment::Line(n[0], n[1]),
                (b'Q', _) => Segment::Quad(n[0], n[1], n[2], n[3]),
                _ => Segment::Cubic(n[0], n[1], n[2], n[3], n[4], n[5]),
            });
        }
        numbers.clear();
        true
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphabetic() {
            if !flush(command, &mut numbers, &mut segments) {
                return None;
            }
            if !b"MLQCZ".contains(&b) {
                return None;
            }
            command = b;
            i += 1;
        } else if b == b' ' || b == b',' {
            i += 1;
        } else {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            let n: f64 = d[start..i].parse().ok()?;
            if !n.is_finite() {
                return None;
            }
            numbers.push(n);
        }
    }
    if !flush(command, &mut numbers, &mut segments) {
        return None;
    }
    matches!(segments.first(), Some(Segment::Move(..))).then_some(segments)
}

/// Write `segments` relative on the grid of `decimals`, scaled by `scale` first.
pub fn write_segments(segments: &[Segment], scale: f64, decimals: u32) -> String {
    let grid = 10_f64.powi(decimals as i32) * scale;
    let q = |x: f64, y: f64| ((x * grid).round() as i64, (y * grid).round() as i64);
    let mut w = PathWriter::new(decimals);
    replay(&mut w, segments, q);
    w.finish()
}

/// Feed `segments` to `w`, each point mapped onto the grid by `at`.
pub fn replay(w: &mut PathWriter, segments: &[Segment], at: impl Fn(f64, f64) -> (i64, i64)) {
    for s in segments {
        match *s {
            Segment::Move(x, y) => w.move_to(at(x, y)),
            Segment::Line(x, y) => w.line_to(at(x, y)),
            Segment::Quad(a, b, x, y) => w.quad_to(at(a, b), at(x, y)),
            Segment::Cubic(a, b, c, d, x, y) => w.cubic_to(at(a, b), at(c, d), at(x, y)),
            Segment::Close => w.close(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read relative data back to absolute grid points (the subset the writer emits).
    fn absolute(d: &str, decimals: u32) -> Vec<(char, Vec<(f64, f64)>)> {
        let scale = 10_f64.powi(decimals as i32);
        let mut out = Vec::new();
        let (mut cur, mut start) = ((0.0, 0.0), (0.0, 0.0));
        let mut tokens: Vec<String> = Vec::new();
        let mut number = String::new();
        for c in d.chars() {
            let ends = c.is_ascii_alphabetic()
                || c == ' '
                || c == '-'
                || (c == '.' && number.contains('.'));
            if ends && !number.is_empty() {
                tokens.push(std::mem::take(&mut number));
            }
            if c.is_ascii_alphabetic() {
                tokens.push(c.to_string());
            } else if c != ' ' {
                number.push(c);
            }
        }
        if !number.is_empty() {
            tokens.push(number);
        }
        let mut i = 0;
        let mut cmd = 'm';
        let num = |t: &str| t.parse::<f64>().expect("number") * scale;
        while i < tokens.len() {
            if tokens[i].chars().all(|c| c.is_ascii_alphabetic()) {
                cmd = tokens[i].chars().next().expect("command");
                i += 1;
                if cmd == 'z' {
                    cur = start;
                    out.push(('z', vec![]));
                    continue;
                }
            }
            let arity = match cmd {
                'h' | 'v' => 1,
                'm' | 'l' => 2,
                'q' => 4,
                _ => 6,
            };
            let n: Vec<f64> = tokens[i..i + arity].iter().map(|t| num(t)).collect();
            i += arity;
            let pts: Vec<(f64, f64)> = match cmd {
                'h' => vec![(cur.0 + n[0], cur.1)],
                'v' => vec![(cur.0, cur.1 + n[0])],
                _ => n.chunks(2).map(|p| (cur.0 + p[0], cur.1 + p[1])).collect(),
            };
            cur = *pts.last().expect("point");
            if cmd == 'm' {
                start = cur;
                cmd = 'l';
                out.push(('m', pts));
            } else {
                out.push((cmd, pts));
            }
        }
        out
    }

    #[test]
    fn relative_data_is_short_and_exact() {
        let d = "M50 80L71 80C74.5 80 76.5 82 77 84.5L77.5 89L50 89Q40 95 22.5 89L23 -84.55Z M10 10L10 20Z";
        let segments = parse_absolute(d).expect("parses");
        let text = write_segments(&segments, 1.0, 1);
        assert_eq!(
            text,
            "m50 80h21c3.5 0 5.5 2 6 4.5l.5 4.5h-27.5q-10 6-27.5 0l.5-173.6zm-40-70v10z"
        );
        let back = absolute(&text, 1);
        let points: Vec<(f64, f64)> = back.iter().flat_map(|(_, p)| p.clone()).collect();
        assert_eq!(points[0], (500.0, 800.0));
        assert_eq!(points[1], (710.0, 800.0));
        assert_eq!(points[4], (770.0, 845.0));
        // -84.55 rounds on the grid to -84.6 (away from zero at .5), absolute, not drifted.
        assert!(points.contains(&(230.0, -846.0)));
        assert_eq!(*points.last().expect("last"), (100.0, 200.0));
    }

    #[test]
    fn other_commands_are_refused() {
        assert!(parse_absolute("M0 0A1 1 0 0 1 2 2").is_none());
        assert!(parse_absolute("m0 0l1 1").is_none());
        assert!(parse_absolute("M0 0L1").is_none());
        assert!(parse_absolute("L1 1").is_none());
        assert!(parse_absolute("M0 0L1e5 1").is_none());
    }

    #[test]
    fn numbers_need_spaces_only_where_the_grammar_does() {
        let mut w = PathWriter::new(1);
        w.move_to((5, 5));
        w.line_to((10, 3));
        w.line_to((15, 9));
        assert_eq!(w.finish(), "m.5.5l.5-.2.5.6");
    }
}
