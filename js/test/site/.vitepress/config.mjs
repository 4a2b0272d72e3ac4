// VitePress config of the plugins' test site (js/test/site): diagram fences drawn at build
// time by staunton/markdown-it into image files under public/, which VitePress publishes.
// The build's own inline SVG cannot be used here: Vue's template compiler drops an SVG's
// <style> element when the page hydrates, so pieces would lose their colours.
import { fileURLToPath } from "node:url";
import staunton from "staunton/markdown-it";

export default {
  title: "Staunton plugin test",
  // bad.md holds a bad fence: built only to see the build fail on it.
  srcExclude: process.env.STAUNTON_SITE_BAD === "1" ? [] : ["bad.md"],
  markdown: {
    config(md) {
      md.use(staunton, {
        mode: "files",
        dir: fileURLToPath(new URL("../public/diagrams", import.meta.url)),
        link: "/diagrams",
        defaults: { size: 240 },
      });
    },
  },
};
