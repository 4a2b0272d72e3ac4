//! The SVG answer's structure: small, every piece drawn once, every reference resolved.

use staunton::options::RenderOptions;
use staunton::render::Renderer;

fn svg(fen: &str, options: &RenderOptions) -> String {
    let position = staunton::fen::parse(fen).expect("valid FEN");
    Renderer::default()
        .svg(&position, options)
        .expect("renders")
}

fn attribute_values<'a>(svg: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!(" {name}=\"");
    svg.match_indices(&needle)
        .map(|(i, _)| {
            let rest = &svg[i + needle.len()..];
            &rest[..rest.find('"').expect("closing quote")]
        })
        .collect()
}

#[test]
fn the_start_position_fits_in_twelve_kilobytes() {
    let text = svg("start", &RenderOptions::default());
    assert!(
        text.len() <= 12_000,
        "start position SVG is {} bytes",
        text.len()
    );
}

#[test]
fn pieces_and_path_data_are_written_once_and_every_reference_resolves() {
    for fen in [
        "start",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
    ] {
        let text = svg(fen, &RenderOptions::default());
        let ids = attribute_values(&text, "id");
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{fen}: an id is defined twice");
        for href in attribute_values(&text, "href") {
            let target = href.strip_prefix('#').expect("local reference");
            assert!(ids.contains(&target), "{fen}: #{target} is not defined");
        }
        let data = attribute_values(&text, "d");
        let mut distinct = data.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), data.len(), "{fen}: path data repeated");
        for class in attribute_values(&text, "class") {
            assert!(
                text.contains(&format!(".{class}{{")),
                "{fen}: class {class} has no rule"
            );
        }
        let position = staunton::fen::parse(fen).expect("valid FEN");
        let pieces = position.pieces().count();
        assert_eq!(
            text.matches("<use href=\"#").count() - text.matches("<use href=\"#p").count(),
            pieces,
            "{fen}: one <use> per piece"
        );
    }
}
