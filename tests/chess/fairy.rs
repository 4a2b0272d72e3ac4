//! Published fairy problems (`tests/fixtures/fairy/problems.ffen`, their sources in the
//! README beside it): each reads in the fairy dialect, writes back the same placement,
//! is described with the words expected, and renders as PNG and SVG.

use staunton::chess::describe::{Lang, describe_in};
use staunton::chess::fen::{self, Dialect};
use staunton::{Format, RenderOptions, Renderer};

/// `(name, ffen, fragments)` of each problem.
fn problems() -> Vec<(String, String, Vec<String>)> {
    let path = crate::common::fixture("fairy/problems.ffen");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [name, ffen, fragments] = fields[..] else {
                panic!("problems.ffen: not three TAB-separated fields: {line:?}");
            };
            let fragments = fragments.split(" | ").map(str::to_string).collect();
            (name.to_string(), ffen.to_string(), fragments)
        })
        .collect()
}

#[test]
fn each_problem_reads_writes_back_and_is_described() {
    let problems = problems();
    assert!(problems.len() >= 5, "the five problems are there");
    let mut neutral = 0;
    let mut turned = 0;
    for (name, ffen, fragments) in problems {
        let pos = fen::parse_with(&ffen, Dialect::Fairy).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(pos.has_figures(), "{name}: figures");
        assert_eq!(fen::placement(&pos), ffen, "{name}");
        // The standard dialect refuses what only Fairy FEN means.
        assert!(fen::parse(&ffen).is_err(), "{name}: read as standard FEN");
        let words = describe_in(&pos, Lang::En);
        for fragment in &fragments {
            assert!(
                words.contains(fragment.as_str()),
                "{name}: {fragment:?} not in {words:?}"
            );
        }
        neutral += usize::from(words.contains("Neutral: "));
        turned += usize::from(words.contains("(upside down)"));
        // Every language names every figure's square.
        for lang in Lang::ALL {
            let words = describe_in(&pos, lang);
            for (sq, _) in pos.figures() {
                assert!(
                    words.contains(&sq.to_string()),
                    "{name} {lang:?}: {sq} in {words}"
                );
            }
        }
    }
    assert!(
        neutral >= 4 && turned >= 3,
        "neutral and turned pieces are both tested"
    );
}

#[test]
fn each_problem_renders_as_png_and_svg() {
    let renderer = Renderer::default();
    let options = RenderOptions {
        size: 256,
        ..RenderOptions::default()
    };
    for (name, ffen, _) in problems() {
        let pos = fen::parse_with(&ffen, Dialect::Fairy).unwrap_or_else(|e| panic!("{name}: {e}"));
        let png = renderer
            .render(&pos, &options, Format::Png)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let image = crate::common::decode(&png);
        assert_eq!((image.width(), image.height()), (256, 256), "{name}");
        let svg = renderer
            .render(&pos, &options, Format::Svg)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let svg = String::from_utf8(svg).expect("SVG is UTF-8");
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{name}"
        );
        assert!(
            svg.contains("Neutral: ") || svg.contains("(upside down)"),
            "{name}: title"
        );
    }
}
