// Types of the options both Markdown plugins take (remark.js, markdown-it.js).

/** How each diagram fence is written. */
export type Mode = "inline" | "data" | "files" | "url";

/** The options of `staunton/remark` and `staunton/markdown-it`. */
export interface Options {
  /**
   * `"inline"` (default): the SVG in the page. `"data"`: an `<img>` holding the image as a
   * `data:` URL. `"files"`: an `<img>` of a file written into `dir`. `"url"`: an `<img>` of
   * the running service's image at `url`.
   */
  mode?: Mode;
  /** Mode `"files"`: the folder the images are written to (made when missing). */
  dir?: string;
  /** Mode `"files"`: what each image's link starts with, e.g. `"/diagrams"` (default: `dir`). */
  link?: string;
  /** Modes `"files"`, `"data"` and `"url"`: `"svg"` (default) or `"png"`. */
  format?: "svg" | "png";
  /** Mode `"url"`: the service's base URL, e.g. `"https://diagrams.example.org"`. */
  url?: string;
  /** Fence options every fence starts from (`size`, `lang`, `theme`…); a fence's own win. */
  defaults?: Record<string, string | number | boolean | string[]>;
  /** The class of each `<figure>` (default `"staunton-diagram"`). */
  className?: string;
  /** Most diagrams in one document (default 1000); one more fails the document. */
  maxDiagrams?: number;
  /** Most bytes of images in one document (default 64 MiB); more fails the document. */
  maxBytes?: number;
}
