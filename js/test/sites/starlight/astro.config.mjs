// An Astro site with Starlight (which has a light/dark theme switch), staunton/remark in
// Astro's markdown.remarkPlugins as the book sets it up, inline SVG (the default mode).
// Served from / by js/test/sites/check.mjs.
import { defineConfig } from "astro/config";
import starlight from "@astrojs/starlight";
import remarkStaunton from "staunton/remark";

export default defineConfig({
  integrations: [starlight({ title: "Staunton on Starlight" })],
  markdown: { remarkPlugins: [remarkStaunton] },
});
