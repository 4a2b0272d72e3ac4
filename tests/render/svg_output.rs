//! The SVG answer's structure: small, every piece drawn once, every reference resolved, by
//! `xlink:href`; an image with a name for screen readers; the portable form
//! (`svg=portable`): no `<symbol>`, `<use>`, CSS or clip path, every piece written out; the
//! inline form (`svg=inline`) and the page's colours (`background=page`).

use staunton::SvgForm;
use staunton::render::Renderer;
use staunton::render::options::RenderOptions;

fn svg(fen: &str, options: &RenderOptions) -> String {
    let position = staunton::chess::fen::parse(fen).expect("valid FEN");
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
fn the_start_position_fits_in_twelve_and_a_half_kilobytes() {
    // 11,806 bytes before `xlink:href` (Inkscape 1.2 draws no bare `href`: +397) and the
    // root's `role="img"` and `aria-labelledby` (+46); 12,249 after.
    let text = svg("start", &RenderOptions::default());
    assert!(
        text.len() <= 12_500,
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
        assert!(!text.contains(" href="), "{fen}: a bare href");
        for href in attribute_values(&text, "xlink:href") {
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
        let position = staunton::chess::fen::parse(fen).expect("valid FEN");
        let pieces = position.pieces().count();
        assert_eq!(
            text.matches("<use xlink:href=\"#").count()
                - text.matches("<use xlink:href=\"#p").count(),
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
            let title = staunton::chess::describe::describe(&request.position);
            let fresh = staunton::render::paint::svg::write_titled(
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
    use staunton::render::pieces::HINT_BELOW_PX;
    let renderer = Renderer::default();
    let set = renderer.piece_sets().get("staunton").expect("built in");
    let position = staunton::chess::fen::parse("start").expect("valid FEN");
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

/// The root element's start tag.
fn root(text: &str) -> &str {
    &text[..text.find('>').expect("a root element") + 1]
}

#[test]
fn the_image_is_named_by_its_title() {
    for form in [SvgForm::Compact, SvgForm::Portable] {
        let options = RenderOptions {
            svg_form: form,
            ..RenderOptions::default()
        };
        let text = svg("start", &options);
        let root = root(&text);
        assert!(root.contains(r#" role="img""#), "{form:?}: {root}");
        assert!(
            root.contains(r#" aria-labelledby="title""#),
            "{form:?}: {root}"
        );
        let first = &text[root.len()..];
        assert!(
            first.starts_with(r#"<title id="title">White: King e1"#),
            "{form:?}: the title is the first child"
        );
    }
}

#[test]
fn the_compact_form_declares_the_xlink_namespace_it_uses() {
    let text = svg("start", &RenderOptions::default());
    assert!(root(&text).contains(r#"xmlns:xlink="http://www.w3.org/1999/xlink""#));
    let empty = svg("empty", &RenderOptions::default());
    assert!(!empty.contains("xlink"), "no <use>, no namespace");
}

/// Requests in the portable form: marks of every kind, a caption, a flipped board, the
/// classic set, a Fairy board with a neutral piece, neutral markers and turned pieces.
const PORTABLE: [&str; 5] = [
    "fen=r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R_b_KQkq_-_3_3&lastMove=f1b5&arrows=Ga7a6,Rb5c6,Yd7&highlight=Rc6&squares=d5&check=e8",
    "fen=r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2Q1RK1_w_-_-_0_10&orientation=black&coordinates=inside&marks=circle:Re4,dotted:d5,label:a3:12&caption=Black%20to%20play&turn=1",
    "fen=6k1/5ppp/8/8/8/8/5PPP/3R2K1_w_-_-_0_1&pieces=staunton-classic&coordinates=none",
    "fen=4-k3/8/2''12*1N4/8/3C'A3/8/2-C-S4/3*2Q3T_w_-_-_0_1&dialect=fairy",
    "fen=start&background=auto",
];

#[test]
fn the_portable_form_has_no_symbol_use_css_or_clip_path() {
    use staunton::request::Request;
    let renderer = Renderer::default();
    for query in PORTABLE {
        let request =
            Request::from_query(&format!("{query}&svg=portable&format=svg"), None).expect("valid");
        let text = renderer
            .svg(&request.position, &request.options)
            .expect("renders");
        for banned in [
            "<symbol",
            "<use",
            "href=",
            "clip-path",
            "class=\"s",
            "<text",
        ] {
            assert!(!text.contains(banned), "{query}: {banned}");
        }
        // CSS only for `background=auto` (a media query), and only the page's two classes.
        match text.find("<style>") {
            Some(at) => {
                assert!(query.contains("background=auto"), "{query}: a style sheet");
                assert!(text[at..].starts_with("<style>@media (prefers-color-scheme:dark)"));
            }
            None => assert!(!query.contains("background=auto"), "{query}"),
        }
        // Every piece stands where it is drawn: one group moved and scaled to its square.
        let pieces = request.position.pieces().count();
        let groups = text.matches(r#"<g transform="translate("#).count();
        let scaled = text.matches(") scale(").count();
        assert!(
            groups >= pieces && scaled >= pieces,
            "{query}: {scaled} of {pieces}"
        );
        // Every id is defined once and every `url(#…)` resolves.
        let ids = attribute_values(&text, "id");
        for (i, _) in text.match_indices("url(#") {
            let rest = &text[i + 5..];
            let target = &rest[..rest.find(')').expect("closing bracket")];
            assert!(ids.contains(&target), "{query}: #{target} is not defined");
        }
    }
}

#[test]
fn the_portable_form_draws_a_neutral_piece_in_halves_by_gradients() {
    use staunton::request::Request;
    let request = Request::from_query("fen=8/8/8/3-k4/8/8/8/8&dialect=fairy&svg=portable", None)
        .expect("valid");
    let text = Renderer::default()
        .svg(&request.position, &request.options)
        .expect("renders");
    // One gradient per colour of each half: the left half's opaque then clear, the right
    // half's clear then opaque, stepping at the same offset.
    let opacities: Vec<Vec<&str>> = text
        .split("<linearGradient ")
        .skip(1)
        .map(|g| {
            attribute_values(
                &g[..g.find("</linearGradient>").expect("closed")],
                "stop-opacity",
            )
        })
        .collect();
    assert_eq!(
        opacities,
        [
            ["1", "1", "0", "0"],
            ["1", "1", "0", "0"],
            ["0", "0", "1", "1"],
            ["0", "0", "1", "1"]
        ]
    );
    for id in ["half0", "half1", "half2", "half3"] {
        assert!(text.contains(&format!("url(#{id})")), "{id} is used");
    }
}

#[test]
fn the_portable_form_costs_bytes_and_the_compact_one_stays_the_default() {
    let compact = svg("start", &RenderOptions::default());
    let portable = svg(
        "start",
        &RenderOptions {
            svg_form: SvgForm::Portable,
            ..RenderOptions::default()
        },
    );
    // More than a quarter more bytes: why it is not the default (see the book, formats.md).
    assert!(
        portable.len() * 4 > compact.len() * 5,
        "{} vs {}",
        portable.len(),
        compact.len()
    );
    assert_eq!(RenderOptions::default().svg_form, SvgForm::Compact);
}

/// `query` drawn as an SVG in `form`.
fn svg_of(query: &str, form: &str) -> String {
    use staunton::request::Request;
    let request =
        Request::from_query(&format!("{query}&svg={form}&format=svg"), None).expect("valid");
    Renderer::default()
        .svg(&request.position, &request.options)
        .expect("renders")
}

/// The inline form (`svg=inline`, for HTML pages): nothing a site framework rewrites or
/// drops (no style sheet, no class, no `xlink`), every id under one prefix of its own and
/// every reference resolved, the root at most as wide as its column; and drawn as the
/// compact form is.
#[test]
fn the_inline_form_has_no_style_sheet_and_ids_of_its_own() {
    let mut prefixes = Vec::new();
    for query in PORTABLE {
        let text = svg_of(query, "inline");
        for banned in ["<style", " class=", "xlink", "<text"] {
            assert!(!text.contains(banned), "{query}: {banned}");
        }
        assert!(
            text.starts_with("<svg ")
                && text[..text.find('>').unwrap()]
                    .contains(r#" style="max-width:100%;height:auto""#),
            "{query}: the root fits its column"
        );
        let ids = attribute_values(&text, "id");
        let prefix = &ids[0][..8];
        assert!(
            prefix.starts_with('s') && prefix.ends_with('-'),
            "{query}: {prefix}"
        );
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{query}: an id is defined twice");
        assert!(ids.iter().all(|id| id.starts_with(prefix)), "{query}");
        let hrefs = attribute_values(&text, "href").into_iter().map(|h| &h[1..]);
        let urls = text.match_indices("url(#").map(|(i, _)| {
            let rest = &text[i + 5..];
            &rest[..rest.find(')').expect("closing bracket")]
        });
        let labelled = attribute_values(&text, "aria-labelledby");
        for target in hrefs.chain(urls).chain(labelled) {
            assert!(ids.contains(&target), "{query}: #{target} is not defined");
        }
        prefixes.push(prefix.to_string());
        // The same drawing as the compact form, but for `auto`, which a page colours.
        if !query.contains("background=auto") {
            let inline = crate::common::rasterise_svg(&text);
            let compact = crate::common::rasterise_svg(&svg_of(query, "compact"));
            assert!(
                inline == compact,
                "{query}: the inline form draws differently"
            );
        }
        assert_eq!(
            text,
            svg_of(query, "inline"),
            "{query}: the same bytes again"
        );
    }
    let mut distinct = prefixes.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), prefixes.len(), "{prefixes:?}");
}

/// `background=page`: no margin of its own (the page shows through) and the labels and
/// caption in the page's text colour; the squares as on any other background. `auto` in
/// the inline form is drawn so, and a format that cannot take the page's colour is told.
#[test]
fn the_page_background_lends_the_page_its_colours() {
    use staunton::request::Request;
    let query = "fen=start&size=240&caption=After%201.%20e4&background=page";
    let text = svg_of(query, "compact");
    assert!(
        !text.contains("prefers-color-scheme"),
        "no colour scheme's style sheet"
    );
    // Two label runs (files, ranks) and the caption.
    assert!(
        text.matches(r#"fill="currentColor""#).count() >= 2,
        "{text}"
    );
    let page = crate::common::rasterise_svg(&text);
    let clear = crate::common::rasterise_svg(&svg_of(
        &query.replace("background=page", "background=transparent"),
        "compact",
    ));
    assert_eq!(page.get_pixel(1, 1)[3], 0, "the margin is clear");
    let (w, h) = (page.width(), page.height());
    assert_eq!((w, h), clear.dimensions());
    let squares = |img: &image::RgbaImage| {
        let mut px = Vec::new();
        for y in (30..210).step_by(7) {
            for x in (30..210).step_by(7) {
                px.push(*img.get_pixel(x, y));
            }
        }
        px
    };
    assert!(
        squares(&page) == squares(&clear),
        "the squares are the same"
    );
    assert_eq!(
        svg_of("fen=start&background=auto", "inline"),
        svg_of("fen=start&background=page", "inline"),
        "auto in the inline form is the page's colours"
    );
    let error = Request::from_query("fen=start&background=page&format=png", None).unwrap_err();
    assert_eq!(error.param, "background");
    assert!(
        error
            .to_string()
            .starts_with("background=page takes the labels' colour from the HTML page"),
        "{error}"
    );
}
