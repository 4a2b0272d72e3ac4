// The remark plugin (`staunton/remark`): each diagram fence of a Markdown or MDX document
// becomes a <figure> drawn at build time, as hast elements (no raw HTML), through the
// package's fence(). Works with unified/remark-rehype, MDX, Docusaurus, Astro and Gatsby.

import { Session, hast, isDiagram, neverClosed, settings } from "./figure.js";

/**
 * remark plugin: diagram fences (```fen, ```chess, ```chessboard, ```pgn) become figures.
 * A fence that cannot be drawn fails the file with its position and the service's sentence.
 *
 * @param {import("./remark.js").Options} [options]
 */
export default function remarkStaunton(options) {
  const config = settings(options ?? {});
  return (tree, file) => {
    const session = new Session(config);
    // Parents are walked with an explicit stack: deeply nested quotes and lists cannot
    // overflow the call stack.
    const parents = [tree];
    while (parents.length > 0) {
      const parent = parents.pop();
      const children = parent.children ?? [];
      for (let i = 0; i < children.length; i += 1) {
        const node = children[i];
        if (node.type === "code" && node.lang && isDiagram(node.lang)) {
          children[i] = figure(session, node, file, config.className);
        } else if (Array.isArray(node.children)) {
          parents.push(node);
        }
      }
    }
    session.finish(file.path);
  };
}

/** The mdast node in place of the diagram fence `node`: a figure for remark-rehype. */
function figure(session, node, file, className) {
  const info = node.meta ? `${node.lang} ${node.meta}` : node.lang;
  let made;
  try {
    made = session.figure(info, node.value ?? "");
  } catch (error) {
    // vfile's fail() at the line the fault stands on (the fence's first line plus the
    // body line fence() names): the message is named path:line:column.
    // A fence never closed runs to the end: that is most likely why, said at its opening.
    const start = node.position?.start;
    const end = node.position?.end;
    const source = start && end ? String(file.value ?? "").slice(start.offset, end.offset) : "";
    const never = start ? neverClosed(source.split("\n"), start.line, error.message) : null;
    const line = start && (never ? start.line : start.line + (error.line ?? 0));
    const place = start ? { line, column: start.column } : node;
    file.fail(never ?? error.message, place, `staunton:${error.param ?? "fence"}`);
  }
  const element = hast(made, className);
  return {
    type: "stauntonDiagram",
    position: node.position,
    data: {
      hName: element.tagName,
      hProperties: element.properties,
      hChildren: element.children,
    },
  };
}
