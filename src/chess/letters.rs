//! The piece letters a game's moves are written in, by language (PGN standard §17):
//! English, German, Dutch, Italian, French, Spanish. Read by `game` (the SAN reader) and
//! `annotated`; its own module so neither depends on the other for it.

/// The piece letters a game's moves are written with (PGN standard §17). Figurines are
/// always read. Only the chosen language's letters are: under Italian `R` is the king and
/// `N`, `B`, `Q` are not moves, since a text is written in one language and a mix would
/// make `R` mean two pieces. Pawn letters are not read in any language (as in English).
/// Moves are written back (`Node::san`, `Game::san`) in English.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Letters {
    /// K Q R B N (P).
    #[default]
    English,
    /// K D T L S (B).
    German,
    /// R D T A C (P).
    Italian,
    /// R D T F C (P).
    French,
    /// R D T A C (P).
    Spanish,
    /// K D T L P (O).
    Dutch,
}

impl Letters {
    /// The language's name in English (`Italian`).
    pub fn name(self) -> &'static str {
        match self {
            Letters::English => "English",
            Letters::German => "German",
            Letters::Italian => "Italian",
            Letters::French => "French",
            Letters::Spanish => "Spanish",
            Letters::Dutch => "Dutch",
        }
    }

    /// The language's code, as the `lang` parameter spells it (`it`).
    pub fn code(self) -> &'static str {
        match self {
            Letters::English => "en",
            Letters::German => "de",
            Letters::Italian => "it",
            Letters::French => "fr",
            Letters::Spanish => "es",
            Letters::Dutch => "nl",
        }
    }

    /// The letters of king, queen, rook, bishop and knight, in that order.
    pub fn pieces(self) -> [char; 5] {
        match self {
            Letters::English => ['K', 'Q', 'R', 'B', 'N'],
            Letters::German => ['K', 'D', 'T', 'L', 'S'],
            Letters::Italian | Letters::Spanish => ['R', 'D', 'T', 'A', 'C'],
            Letters::French => ['R', 'D', 'T', 'F', 'C'],
            Letters::Dutch => ['K', 'D', 'T', 'L', 'P'],
        }
    }

    /// The English letter of this language's piece letter `c`, if it is one.
    pub fn to_english(self, c: char) -> Option<char> {
        let i = self.pieces().iter().position(|&p| p == c)?;
        Some(Letters::English.pieces()[i])
    }

    /// English SAN (as the board writes it) with this language's piece letters.
    pub fn from_english(self, san: &str) -> String {
        let english = Letters::English.pieces();
        san.chars()
            .map(|c| match english.iter().position(|&p| p == c) {
                Some(i) => self.pieces()[i],
                None => c,
            })
            .collect()
    }

    /// True when the letters clash with a 10×8 board's archbishop `A` or chancellor `C`.
    pub fn clash_on_10x8(self) -> bool {
        matches!(self, Letters::Italian | Letters::French | Letters::Spanish)
    }
}
