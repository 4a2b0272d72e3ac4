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

#[test]
fn kept_parts_give_the_same_document_as_writing_afresh() {
    use staunton::request::Request;
    // One renderer for all, so later documents take their symbols, squares and labels
    // from what earlier ones kept: sizes, orientations, coordinates, sets of pieces and
    // marks that share some parts and not others.
    let renderer = Renderer::default();
    let queries = [
        "fen=start",
        "fen=start&size=720",
        "fen=start&orientation=black",
        "fen=start&coordinates=inside",
        "fen=start&coordinates=none&size=333",
        // The same square size as the first (45 px) in a document of another size.
        "fen=start&coordinates=none&size=360",
        "fen=8/8/8/4k3/8/8/8/4K3_w_-_-_0_1",
        "fen=8/8/8/4k3/8/8/8/4KQ2_w_-_-_0_1",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3&highlight=Ge5",
        "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR_w_KQkq_-_0_1",
        "fen=empty",
    ];
    for round in 0..2 {
        for query in queries {
            let request = Request::from_query(query, None).expect("valid query");
            let kept = renderer
                .svg(&request.position, &request.options)
                .expect("renders");
            let scene = renderer.scene(&request.position, &request.options);
            let set = renderer.set(&request.options).expect("known set");
            let title = staunton::describe::describe(&request.position);
            let fresh = staunton::svg::write_titled(
                &scene,
                set,
                staunton::render::art::font::LabelFont::builtin(),
                Some(&title),
            );
            assert_eq!(kept, fresh, "round {round}: {query}");
        }
    }
}

#[test]
fn vector_output_keeps_the_full_drawing_on_small_squares() {
    // Hinting is for pixels: an SVG (and the PDF made from it) is scaled by its viewer, on a
    // high-density screen or a printer, so it always carries the full drawing.
    use staunton::pieces::HINT_BELOW_PX;
    let renderer = Renderer::default();
    let set = renderer.piece_sets().get("staunton").expect("built in");
    let position = staunton::fen::parse("start").expect("valid FEN");
    // The hinted drawings reuse the outlines' path data with other styles (a wide outline
    // under a fill without one): the styles tell the drawings apart.
    let styles = |px: u32| -> std::collections::HashSet<String> {
        staunton::Piece::all()
            .flat_map(|p| set.art_at(p, px).paths.clone().expect("flat paths"))
            .map(|path| path.style)
            .collect()
    };
    let (hinted, full) = (styles(HINT_BELOW_PX - 1), styles(HINT_BELOW_PX));
    let only_hinted: Vec<&String> = hinted.difference(&full).collect();
    assert!(
        !only_hinted.is_empty(),
        "the hinted drawings have styles of their own"
    );
    for px in [8, HINT_BELOW_PX - 1, HINT_BELOW_PX] {
        let options = RenderOptions {
            size: px * 8,
            coordinates: staunton::Coordinates::None,
            ..RenderOptions::default()
        };
        let text = renderer.svg(&position, &options).expect("renders");
        assert!(
            text.contains("stroke-width:3.5"),
            "{px} px: the full outline"
        );
        for style in &only_hinted {
            assert!(
                !text.contains(style.as_str()),
                "{px} px: hinted {style} drawn"
            );
        }
    }
}
