// A VitePress site with staunton/markdown-it given to markdown.config, inline SVG (the
// plugin's default mode), as a user would write it. Served from / by
// js/test/sites/check.mjs, which checks the diagrams after Vue hydrates them and after the
// router's client-side navigation.
import staunton from "staunton/markdown-it";

export default {
  title: "Staunton on VitePress",
  markdown: {
    config: (md) => md.use(staunton),
  },
};
