//! Colours: the board palette a diagram is drawn with.
//!
//! Owns colour values only; where they go is `scene.rs`.

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

/// The colours of a diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Theme {
    /// Light squares.
    pub light: Rgba,
    /// Dark squares.
    pub dark: Rgba,
    /// The margin around the board (coordinates outside).
    pub margin: Rgba,
    /// The thin frame around the board.
    pub frame: Rgba,
    /// Coordinate labels in the margin.
    pub label: Rgba,
}

impl Default for Theme {
    /// `brown`: warm cream and walnut, dark brown frame and labels on white.
    fn default() -> Self {
        Theme {
            light: Rgba::hex(0xeedcbb),
            dark: Rgba::hex(0xb78b66),
            margin: Rgba::hex(0xffffff),
            frame: Rgba::hex(0x4a3d33),
            label: Rgba::hex(0x4a3d33),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
