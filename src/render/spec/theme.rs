//! Colours: the board palette a diagram is drawn with.
//!
//! Owns colour values only; where they go is `scene/`.

use std::fmt;

/// An sRGB colour with straight (not premultiplied) alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgba {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha, 255 = opaque.
    pub a: u8,
}

impl Rgba {
    /// An opaque colour from a `0xRRGGBB` number.
    pub const fn hex(rgb: u32) -> Rgba {
        Rgba {
            r: (rgb >> 16) as u8,
            g: (rgb >> 8) as u8,
            b: rgb as u8,
            a: 255,
        }
    }
}

impl fmt::Display for Rgba {
    /// `#rrggbb`, or `#rrggbbaa` when not opaque: safe to write into SVG attributes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)?;
        if self.a != 255 {
            write!(f, "{:02x}", self.a)?;
        }
        Ok(())
    }
}

impl Rgba {
    /// The same colour with alpha `a`.
    pub const fn with_alpha(self, a: u8) -> Rgba {
        Rgba { a, ..self }
    }

    /// Parse `#rgb` or `#rrggbb`, and `#rrggbbaa` when `alpha` is allowed. Nothing else:
    /// no names, no functions, so a colour can never carry markup.
    pub fn parse_hex(text: &str, alpha: bool) -> Option<Rgba> {
        let hex = text.strip_prefix('#')?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        let nibble = |i: usize| {
            u8::from_str_radix(hex.get(i..i + 1)?, 16)
                .ok()
                .map(|n| n * 17)
        };
        match hex.len() {
            3 => Some(Rgba {
                r: nibble(0)?,
                g: nibble(1)?,
                b: nibble(2)?,
                a: 255,
            }),
            6 => Some(Rgba {
                r: byte(0)?,
                g: byte(2)?,
                b: byte(4)?,
                a: 255,
            }),
            8 if alpha => Some(Rgba {
                r: byte(0)?,
                g: byte(2)?,
                b: byte(4)?,
                a: byte(6)?,
            }),
            _ => None,
        }
    }
}

/// The colours of a diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Theme {
    /// Light squares.
    pub light: Rgba,
    /// Dark squares.
    pub dark: Rgba,
    /// Dark squares are hatched with diagonal lines in `frame` colour (printed books).
    pub hatched: bool,
    /// The margin around the board (coordinates outside).
    pub margin: Rgba,
    /// The thin frame around the board.
    pub frame: Rgba,
    /// Coordinate labels in the margin.
    pub label: Rgba,
    /// Tint of the last move's squares (translucent).
    pub last_move: Rgba,
    /// The margin and labels on a dark page, for an SVG that follows the reader's colour
    /// scheme (`background=auto`); `None` draws `margin` and `label` everywhere.
    pub dark_page: Option<Page>,
    /// The page lends its colours (`background=page`, SVG only): no margin colour, and the
    /// labels and caption in the page's text colour (`currentColor`).
    pub page_ink: bool,
}

/// The colours of the page around the board: what lies outside the squares, and the
/// labels on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Page {
    /// The margin, pocket strips and the turn marker's strip.
    pub background: Rgba,
    /// Coordinate labels and the caption.
    pub label: Rgba,
}

/// The `dark` page: a soft near-black (the dark themes of blogs and editors sit between
/// #121212 and #24292e) with warm light labels, 13:1.
pub const DARK_PAGE: Page = Page {
    background: Rgba::hex(0x1e1f22),
    label: Rgba::hex(0xe6e0d6),
};

/// The least contrast a label keeps against its background: WCAG's 4.5:1 for text.
pub const MIN_LABEL_CONTRAST: f64 = 4.5;

impl Rgba {
    /// Relative luminance, 0 (black) to 1 (white), as WCAG 2 defines it.
    pub fn luminance(self) -> f64 {
        let linear = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(self.r) + 0.7152 * linear(self.g) + 0.0722 * linear(self.b)
    }

    /// The contrast ratio of two opaque colours, 1 to 21, as WCAG 2 defines it.
    pub fn contrast(self, other: Rgba) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }
}

/// Ink for labels on `background`: `preferred` when it keeps [`MIN_LABEL_CONTRAST`], else
/// the dark page's light ink or the pieces' near-black, whichever reads better, and on a
/// middling grey where neither does, white or black (one of which always keeps 4.58:1).
pub fn label_for(background: Rgba, preferred: Rgba) -> Rgba {
    let better = |a: Rgba, b: Rgba| {
        if a.contrast(background) >= b.contrast(background) {
            a
        } else {
            b
        }
    };
    if preferred.contrast(background) >= MIN_LABEL_CONTRAST {
        return preferred;
    }
    let soft = better(DARK_PAGE.label, INK);
    if soft.contrast(background) >= MIN_LABEL_CONTRAST {
        return soft;
    }
    better(Rgba::hex(0xffffff), Rgba::hex(0x000000))
}

/// Names of the built-in themes, in the order the README lists them.
pub const THEME_NAMES: [&str; 6] = ["brown", "blue", "green", "gray", "wikipedia", "print"];

/// Other names the themes answer to (alias, theme): `grey`, and web-boardimage's `colors`.
pub const THEME_ALIASES: [(&str, &str); 4] = [
    ("grey", "gray"),
    ("default", "brown"),
    ("lichess-brown", "brown"),
    ("lichess-blue", "blue"),
];

/// Every theme name, as help texts and error sentences list them: `brown, blue, green,
/// gray, wikipedia or print (also grey, default, lichess-brown, lichess-blue)`.
pub fn theme_list() -> String {
    let (last, first) = THEME_NAMES.split_last().expect("themes");
    let aliases: Vec<&str> = THEME_ALIASES.iter().map(|(alias, _)| *alias).collect();
    format!(
        "{} or {last} (also {})",
        first.join(", "),
        aliases.join(", ")
    )
}

impl Theme {
    fn board(light: u32, dark: u32, frame: u32, last_move: Rgba) -> Theme {
        Theme {
            light: Rgba::hex(light),
            dark: Rgba::hex(dark),
            hatched: false,
            margin: Rgba::hex(0xffffff),
            frame: Rgba::hex(frame),
            label: Rgba::hex(frame),
            last_move,
            dark_page: None,
            page_ink: false,
        }
    }

    /// A built-in theme by name or alias ([`THEME_ALIASES`]), case-insensitive.
    pub fn named(name: &str) -> Option<Theme> {
        let lime = Rgba::hex(0xc8d43a).with_alpha(0x80);
        let name = name.to_ascii_lowercase();
        let name = THEME_ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name.as_str(), |(_, theme)| theme);
        Some(match name {
            "brown" => Theme::default(),
            "blue" => Theme::board(
                0xdfe6ec,
                0x7f9cb4,
                0x34495c,
                Rgba::hex(0x9ccf3a).with_alpha(0x78),
            ),
            "green" => Theme::board(
                0xeaedd3,
                0x7b9a5c,
                0x354a28,
                Rgba::hex(0xf2e24a).with_alpha(0x80),
            ),
            "gray" => Theme::board(
                0xe2e2e2,
                0xa6a6a6,
                0x3a3a3a,
                Rgba::hex(0x8fb3d9).with_alpha(0x80),
            ),
            "wikipedia" => Theme::board(0xffce9e, 0xd18b47, 0x4a3520, lime),
            "print" => Theme {
                light: Rgba::hex(0xffffff),
                dark: Rgba::hex(0xffffff),
                hatched: true,
                margin: Rgba::hex(0xffffff),
                frame: Rgba::hex(0x000000),
                label: Rgba::hex(0x000000),
                last_move: Rgba::hex(0x000000).with_alpha(0x24),
                dark_page: None,
                page_ink: false,
            },
            _ => return None,
        })
    }
}

/// The check glow's red, at its centre.
const CHECK_RED: Rgba = Rgba::hex(0xff2a1a);

impl Theme {
    /// The check glow, as radial stops (offset 0–1 from the centre, colour): red, or the
    /// frame's ink where red would not read: on a printed, black-and-white board (one
    /// coloured blob on a page that has none), or on squares themselves close to red.
    pub fn check_glow(&self) -> [(f32, Rgba); 3] {
        let near_red = |c: Rgba| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(c.r, CHECK_RED.r) + d(c.g, CHECK_RED.g) + d(c.b, CHECK_RED.b) < 110 * 110
        };
        if self.hatched || near_red(self.light) || near_red(self.dark) {
            // Ink, translucent: a grey shadow that a black king still stands out on.
            let ink = |a: u8| self.frame.with_alpha(a);
            [(0.0, ink(0x70)), (0.55, ink(0x60)), (1.0, ink(0x00))]
        } else {
            let red = |rgb: u32, a: u8| Rgba::hex(rgb).with_alpha(a);
            [
                (0.0, CHECK_RED),
                (0.55, red(0xe8200f, 0xe0)),
                (1.0, red(0xa00000, 0x00)),
            ]
        }
    }
}

impl Default for Theme {
    /// `brown`: warm cream and walnut, dark brown frame and labels on white.
    fn default() -> Self {
        Theme::board(
            0xeedcbb,
            0xb78b66,
            0x4a3d33,
            Rgba::hex(0xc8d43a).with_alpha(0x80),
        )
    }
}

/// The light halo around crosses and circles, which makes them stand out from dark pieces
/// and dark squares: the built-in white pieces' fill (see `scene/mod.rs`).
pub const HALO: Rgba = Rgba::hex(0xfbf9f4);

/// The ink of crosses and of the rims of circles, which makes them stand out from light and
/// middling colours: the built-in pieces' outline. Marks drawn in the pieces' two colours
/// look of a piece with them, and their edges add no shades the pieces do not already have.
pub const INK: Rgba = Rgba::hex(0x1a1a1a);

/// The four marker colours of lichess and python-chess: green, red, yellow, blue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MarkColor {
    /// `G`, the default.
    #[default]
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl MarkColor {
    /// The colour for a letter `G`, `R`, `Y`, `B` (either case).
    pub fn from_letter(c: char) -> Option<MarkColor> {
        match c.to_ascii_uppercase() {
            'G' => Some(MarkColor::Green),
            'R' => Some(MarkColor::Red),
            'Y' => Some(MarkColor::Yellow),
            'B' => Some(MarkColor::Blue),
            _ => None,
        }
    }

    /// The letter, `G`, `R`, `Y` or `B`.
    pub fn letter(self) -> char {
        match self {
            MarkColor::Green => 'G',
            MarkColor::Red => 'R',
            MarkColor::Yellow => 'Y',
            MarkColor::Blue => 'B',
        }
    }

    /// Arrow and circle colour: strong, slightly translucent so pieces show through.
    pub fn arrow(self) -> Rgba {
        self.pick([0x15781b, 0x882020, 0xe68f00, 0x003088])
            .with_alpha(0xcc)
    }

    /// Circle colour: the arrow colour, opaque (a circle lies on its own rims and halo,
    /// not on the board; see `scene/mod.rs`).
    pub fn circle(self) -> Rgba {
        self.arrow().with_alpha(255)
    }

    /// Square highlight colour: light and translucent.
    pub fn highlight(self) -> Rgba {
        self.pick([0x3fa34d, 0xd23c3c, 0xf0c419, 0x3c78d2])
            .with_alpha(0x80)
    }

    /// This colour's shade of `rgb` (green, red, yellow, blue), opaque.
    fn pick(self, [green, red, yellow, blue]: [u32; 4]) -> Rgba {
        Rgba::hex(match self {
            MarkColor::Green => green,
            MarkColor::Red => red,
            MarkColor::Yellow => yellow,
            MarkColor::Blue => blue,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_strictly() {
        assert_eq!(Rgba::parse_hex("#abc", false), Some(Rgba::hex(0xaabbcc)));
        assert_eq!(Rgba::parse_hex("#A0b1C2", false), Some(Rgba::hex(0xa0b1c2)));
        assert_eq!(
            Rgba::parse_hex("#a0b1c280", true),
            Some(Rgba::hex(0xa0b1c2).with_alpha(0x80))
        );
        for bad in [
            "#a0b1c280",
            "red",
            "abc",
            "#abcd",
            "#ggg",
            "#fff\"/><script>",
            "#+1+2+3",
            "",
        ] {
            assert_eq!(Rgba::parse_hex(bad, false), None, "{bad}");
        }
    }

    #[test]
    fn every_named_theme_exists() {
        for name in THEME_NAMES {
            assert!(Theme::named(name).is_some(), "{name}");
        }
        assert_eq!(Theme::named("BROWN"), Some(Theme::default()));
        assert!(Theme::named("print").is_some_and(|t| t.hatched));
        assert_eq!(Theme::named("neon"), None);
        for (alias, theme) in THEME_ALIASES {
            assert_eq!(Theme::named(alias), Theme::named(theme), "{alias}");
            assert!(theme_list().contains(alias));
        }
        assert_eq!(
            theme_list(),
            "brown, blue, green, gray, wikipedia or print (also grey, default, lichess-brown, lichess-blue)"
        );
    }

    #[test]
    fn contrast_follows_wcag() {
        let (white, black) = (Rgba::hex(0xffffff), Rgba::hex(0x000000));
        assert!((white.contrast(black) - 21.0).abs() < 1e-9);
        assert!((white.contrast(white) - 1.0).abs() < 1e-9);
        // WCAG's own example: #777777 on white is just under 4.5:1.
        let grey = Rgba::hex(0x777777);
        assert!(grey.contrast(white) > 4.4 && grey.contrast(white) < 4.5);
        assert_eq!(label_for(white, grey), INK);
        assert_eq!(label_for(black, grey), grey, "4.68:1 on black: kept");
        assert_eq!(label_for(black, Rgba::hex(0x444444)), DARK_PAGE.label);
        assert_eq!(label_for(white, black), black);
        // Between the soft inks' reach: pure white or black.
        let middling = Rgba::hex(0x6f6f6f);
        assert!(label_for(middling, grey).contrast(middling) >= MIN_LABEL_CONTRAST);
    }

    #[test]
    fn colours_print_as_svg_hex() {
        assert_eq!(Rgba::hex(0x0a0b0c).to_string(), "#0a0b0c");
        let translucent = Rgba {
            a: 0x80,
            ..Rgba::hex(0xff0000)
        };
        assert_eq!(translucent.to_string(), "#ff000080");
    }
}
