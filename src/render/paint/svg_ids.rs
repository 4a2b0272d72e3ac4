//! The ids of an SVG document made its own, so that it can share a page or a larger
//! document with others: the inline form's finish (`svg=inline`), a diagram nested in a
//! sheet or an article, and the accessible name an HTML page gives an inline diagram;
//! with the escaping of the text they carry.
//!
//! Works on the markup only: the text of a `<title>` or `<desc>` (a caption the user
//! wrote) is never touched, whatever it says. The documents are `svg.rs`'s, whose text
//! is escaped, so each `<` opens a tag and the next `>` closes it.

use std::fmt::Write as _;

/// `svg` with every id it defines and every reference to one (`id`, `href="#…"`,
/// `xlink:href="#…"`, `url(#…)`, `aria-labelledby`) starting with `prefix`; with `bare`,
/// `xlink:href` written as SVG 2's `href` and the `xlink` namespace left out.
pub(super) fn prefixed(svg: &str, prefix: &str, bare: bool) -> String {
    let mut out = String::with_capacity(svg.len() + svg.len() / 8);
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('>').map_or(rest.len(), |e| start + e + 1);
        tag(&mut out, &rest[start..end], prefix, bare);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// One tag, its ids prefixed.
fn tag(out: &mut String, tag: &str, prefix: &str, bare: bool) {
    if !tag.contains('#') && !tag.contains(" id=\"") && !tag.contains("labelledby") {
        out.push_str(tag);
        return;
    }
    let mut tag = tag
        .replace(r#" id=""#, &format!(r#" id="{prefix}"#))
        .replace(r##"href="#"##, &format!(r##"href="#{prefix}"##))
        .replace("url(#", &format!("url(#{prefix}"))
        .replace(
            r#" aria-labelledby=""#,
            &format!(r#" aria-labelledby="{prefix}"#),
        );
    if bare {
        tag = tag
            .replace(" xlink:href=", " href=")
            .replace(r#" xmlns:xlink="http://www.w3.org/1999/xlink""#, "");
    }
    out.push_str(&tag);
}

/// The inline form finished: every id prefixed by `s`, six characters of a hash of the
/// document, and `-`. Equal prefixes mean equal documents, so two diagrams on one page
/// never draw each other's pieces, and the same request always gives the same bytes.
pub(super) fn finish_inline(svg: &str) -> String {
    let hash = crate::hash::fnv1a(svg.bytes());
    let prefix = format!("s{}-", crate::hash::base36(hash, 6));
    prefixed(svg, &prefix, true)
}

/// A diagram document `svg` (as `svg.rs` writes it) made ready to nest in a larger
/// document: placed at (`x`, `y`), and every id it defines and refers to prefixed with
/// `prefix`, so several diagrams can share one document.
pub fn nested(svg: &str, prefix: &str, x: u32, y: u32) -> String {
    let body = prefixed(svg, prefix, false);
    match body.strip_prefix("<svg ") {
        Some(rest) => format!(r#"<svg x="{x}" y="{y}" {rest}"#),
        None => body,
    }
}

/// An inline SVG (`svg=inline`) named `label` for screen readers, as an HTML page names
/// it: `role="img"` and `aria-label` on the root in place of the document's
/// `aria-labelledby` (the `<title>` stays, shown as a tooltip), on one line.
pub fn labelled(svg: &str, label: &str) -> String {
    let one_line = svg.replace(['\n', '\r'], " ");
    let Some(rest) = one_line.strip_prefix("<svg ") else {
        return one_line;
    };
    let root_end = rest.find('>').unwrap_or(rest.len());
    let (root, body) = rest.split_at(root_end);
    let mut attributes = String::new();
    for attribute in attributes_of(root) {
        if !attribute.starts_with("role=") && !attribute.starts_with("aria-labelledby=") {
            let _ = write!(attributes, " {attribute}");
        }
    }
    let label = escape(label).replace('"', "&quot;");
    format!(r#"<svg role="img" aria-label="{label}"{attributes}{body}"#)
}

/// The `name="value"` attributes of a root tag's text (after `<svg `), in order.
fn attributes_of(root: &str) -> Vec<&str> {
    let root = root.trim_end_matches('/').trim();
    let mut out = Vec::new();
    let mut rest = root;
    while let Some(eq) = rest.find("=\"") {
        let close = rest[eq + 2..].find('"').map_or(rest.len(), |c| eq + 2 + c + 1);
        out.push(rest[..close].trim());
        rest = &rest[close..];
    }
    out
}

/// Escape text for an XML text node; a character XML cannot hold (a request refuses them,
/// this is the second wall) becomes U+FFFD.
pub(super) fn escape(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if crate::echo::xml_char(c) { c } else { '\u{FFFD}' })
        .collect();
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" role="img" aria-labelledby="title" width="8" height="8"><title id="title">a id="b" href="#c" url(#d)</title><defs><symbol id="wK"><path d="M0 0"/></symbol></defs><use xlink:href="#wK" x="1"/><path fill="url(#glow1)" d="M0 0"/></svg>"##;

    #[test]
    fn ids_and_references_are_prefixed_but_never_text() {
        let out = prefixed(DOC, "p-", false);
        assert!(out.contains(r#"aria-labelledby="p-title""#), "{out}");
        assert!(
            out.contains(r##"<title id="p-title">a id="b" href="#c" url(#d)</title>"##),
            "{out}"
        );
        assert!(out.contains(r#"<symbol id="p-wK">"#), "{out}");
        assert!(out.contains(r##"<use xlink:href="#p-wK" x="1"/>"##), "{out}");
        assert!(out.contains(r#"fill="url(#p-glow1)""#), "{out}");
        assert!(out.contains("xmlns:xlink"), "{out}");
    }

    #[test]
    fn the_inline_finish_writes_bare_hrefs_under_a_hash_of_the_document() {
        let out = finish_inline(DOC);
        assert!(!out.contains("xlink"), "{out}");
        let prefix = &out[out.find(r#"<symbol id=""#).unwrap() + 12..][..8];
        assert!(prefix.starts_with('s') && prefix.ends_with('-'), "{prefix}");
        assert!(out.contains(&format!(r##"<use href="#{prefix}wK""##)), "{out}");
        let other = finish_inline(&DOC.replace("M0 0", "M1 1"));
        assert!(!other.contains(prefix), "another document, another prefix");
        assert_eq!(out, finish_inline(DOC), "the same document, the same bytes");
    }

    #[test]
    fn a_page_names_the_diagram_by_its_label() {
        let out = labelled(&finish_inline(DOC), "White \"to\" <move>");
        assert!(out.starts_with(r#"<svg role="img" aria-label="White &quot;to&quot; &lt;move&gt;" xmlns="http://www.w3.org/2000/svg" width="8""#), "{out}");
        assert!(!out.contains("aria-labelledby"), "{out}");
        assert_eq!(out.matches("role=").count(), 1, "{out}");
    }
}
