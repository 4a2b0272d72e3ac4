// A Docusaurus site as the book sets one up (docs/src/javascript.md, "MDX, Docusaurus,
// Astro, Gatsby"): staunton/remark in the docs preset's remarkPlugins, inline SVG (the
// default mode). Served from / by js/test/sites/check.mjs. As `create-docusaurus` 3.10
// makes a site: future.v4 on and @docusaurus/faster installed, so Rspack builds it and
// SWC minifies its HTML (the CSS of <style> elements too). package.json's override pins
// @swc/html to 1.16.2: the registry CI reaches has 1.16.22's binary for linux-x64-gnu only,
// and `npm ci` refuses a lock that lacks the other platforms' optional packages.
import remarkStaunton from "staunton/remark";

export default {
  title: "Staunton on Docusaurus",
  url: "http://127.0.0.1",
  baseUrl: "/",
  onBrokenLinks: "throw",
  future: { v4: true },
  presets: [
    [
      "classic",
      {
        docs: { routeBasePath: "/", remarkPlugins: [remarkStaunton] },
        blog: false,
        theme: {},
      },
    ],
  ],
  themeConfig: {
    navbar: { title: "Staunton" },
    colorMode: { defaultMode: "light", respectPrefersColorScheme: false },
  },
};
