//! The `region` parameter: two corner squares of the part of the board to draw.
//!
//! Owns its syntax (`a1:d4` or `e5-h8`, the corners in either order) and its one error
//! sentence; what a region looks like is `render/scene/region.rs`.

use super::error::RequestError;
use crate::chess::position::{BoardSize, Square};
use crate::render::options::Region;

/// Read `value` (`a1:d4`, `e5-h8`, `h8:e5`: two corners, in either order) on `board`.
pub fn parse_region(value: &str, board: BoardSize) -> Result<Region, RequestError> {
    let corners = value
        .split_once([':', '-'])
        .and_then(|(a, b)| Some((Square::parse(a, board)?, Square::parse(b, board)?)));
    match corners {
        Some((a, b)) => Ok(Region::new(a, b)),
        None => {
            let last = Square::new(board.files - 1, board.ranks - 1);
            Err(RequestError::bad_value(
                "region",
                value,
                &format!(
                    "expected two corner squares on the {board} board (a1 to {last}), e.g. a1:d4 or e5-h8"
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::chess::position::sq;

    #[test]
    fn either_separator_and_corner_order_give_one_region() {
        let want = Region::new(sq("a1"), sq("d4"));
        for text in ["a1:d4", "d4:a1", "a1-d4", "d4-a1", "a4:d1", "d1-a4"] {
            assert_eq!(parse_region(text, BoardSize::CHESS), Ok(want), "{text}");
        }
        assert_eq!(want.low, sq("a1"));
        assert_eq!(want.high, sq("d4"));
        let one = parse_region("e4:e4", BoardSize::CHESS).unwrap();
        assert_eq!((one.files(), one.ranks()), (1, 1));
    }

    #[test]
    fn large_boards_take_two_digit_ranks() {
        let board = BoardSize::new(16, 16).unwrap();
        let r = parse_region("a10:p16", board).unwrap();
        assert_eq!((r.files(), r.ranks()), (16, 7));
    }

    #[test]
    fn bad_regions_name_the_parameter_the_value_and_the_board() {
        let err = parse_region("a1:q4", BoardSize::CHESS).unwrap_err();
        assert_eq!(err.param, "region");
        assert_eq!(
            err.to_string(),
            "region \"a1:q4\" is not allowed: expected two corner squares on the 8×8 board (a1 to h8), e.g. a1:d4 or e5-h8"
        );
        for bad in [
            "", "a1", "a1d4", "a1:", ":d4", "a1:d4:e5", "a0:d4", "a1:i1", "A1:D4", "a1 d4",
        ] {
            let err = parse_region(bad, BoardSize::CHESS).unwrap_err().to_string();
            assert!(err.starts_with("region "), "{bad}: {err}");
            assert!(err.contains("8×8 board (a1 to h8)"), "{bad}: {err}");
        }
        let board = BoardSize::new(10, 8).unwrap();
        let err = parse_region("a1:k8", board).unwrap_err().to_string();
        assert!(err.contains("10×8 board (a1 to j8)"), "{err}");
    }
}
