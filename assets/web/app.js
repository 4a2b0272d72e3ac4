// Staunton's composer: builds diagram URLs from the form, previews them, and writes tags.
// The option lists come from /openapi.json, so the page offers what the service accepts.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const TEXT = ["lastMove", "check", "arrows", "highlight", "squares", "annotations"];
  const CHOICES = ["orientation", "coordinates", "format", "theme", "pieces"];
  // Parameter order in URLs: stable, so equal diagrams get equal URLs (and cache entries).
  const ORDER = ["fen", "size", "orientation", "coordinates", "theme", "pieces", "light", "dark",
    "lastMove", "check", "arrows", "squares", "highlight", "annotations", "turn", "format"];
  let defaults = {};
  let maxSize = 2048;
  let timer = null;
  let generation = 0;

  function escapeAttr(text) {
    return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;")
      .replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function setError(param, message) {
    for (const el of document.querySelectorAll(".error")) el.textContent = "";
    for (const el of document.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    if (!message) return;
    const control = $(param);
    if (control) control.setAttribute("aria-invalid", "true");
    (param === "fen" ? $("fen-error") : $("error")).textContent = message;
  }

  // The form as (name, value) pairs, defaults left out.
  function params(overrides) {
    const p = new Map();
    p.set("fen", $("fen").value.trim());
    const size = $("size").value.trim();
    if (size && size !== String(defaults.size)) p.set("size", size);
    for (const name of CHOICES) {
      const v = $(name).value;
      if (v && v !== defaults[name]) p.set(name, v);
    }
    if ($("custom-colours").checked) {
      p.set("light", $("light").value);
      p.set("dark", $("dark").value);
    }
    for (const name of TEXT) {
      const v = $(name).value.trim();
      if (v) p.set(name, v);
    }
    if ($("turn").checked) p.set("turn", "1");
    for (const [k, v] of Object.entries(overrides || {})) p.set(k, v);
    const query = new URLSearchParams();
    for (const name of ORDER) if (p.has(name)) query.set(name, p.get(name));
    return query;
  }

  function diagramUrl(query) {
    const path = query.get("format") === "svg" ? "/diagram.svg" : "/diagram.png";
    const q = new URLSearchParams(query);
    q.delete("format");
    return location.origin + path + "?" + q.toString();
  }

  async function update() {
    const mine = ++generation;
    const query = params();
    history.replaceState(null, "", "/?" + query.toString());
    const url = diagramUrl(query);
    $("status").textContent = "Rendering…";
    let response;
    try {
      response = await fetch(url);
    } catch (e) {
      if (mine === generation) $("status").textContent = "The service cannot be reached.";
      return;
    }
    if (mine !== generation) return;
    if (!response.ok) {
      const sentence = (await response.text()).trim();
      if (mine !== generation) return;
      const param = sentence.split(/[\s"]/)[0];
      setError(param, sentence);
      $("status").textContent = "";
      $("preview").hidden = true;
      for (const id of ["out-url", "out-img", "out-srcset", "out-md"]) $(id).value = "";
      return;
    }
    setError(null, null);
    const describe = await fetch("/describe?" + new URLSearchParams({ fen: query.get("fen") }));
    const alt = describe.ok ? (await describe.text()).trim() : "Chess diagram";
    if (mine !== generation) return;
    const img = $("preview");
    img.alt = alt;
    img.onload = () => {
      if (mine !== generation) return;
      img.hidden = false;
      writeOutputs(query, url, alt, img.naturalWidth, img.naturalHeight);
      $("status").textContent = img.naturalWidth + " × " + img.naturalHeight + " pixels";
    };
    img.src = url;
  }

  function writeOutputs(query, url, alt, width, height) {
    const a = escapeAttr(alt);
    $("out-url").value = url;
    $("out-img").value = `<img src="${escapeAttr(url)}" width="${width}" height="${height}" alt="${a}">`;
    const size = Number(query.get("size") || defaults.size);
    const double = Math.min(size * 2, maxSize);
    const url2 = diagramUrl(params({ size: String(double) }));
    $("out-srcset").value = `<img src="${escapeAttr(url)}" srcset="${escapeAttr(url2)} ${(double / size).toFixed(2).replace(/\.?0+$/, "")}x" width="${width}" height="${height}" alt="${a}">`;
    $("out-md").value = `![${alt.replace(/[[\]\\]/g, "\\$&")}](${url})`;
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, 250);
  }

  async function copy(id, button) {
    const field = $(id);
    let done = false;
    try {
      await navigator.clipboard.writeText(field.value);
      done = true;
    } catch (e) {
      field.select();
      done = document.execCommand && document.execCommand("copy");
    }
    button.textContent = done ? "Copied" : "Select and copy";
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }

  function fill(select, values, chosen) {
    select.textContent = "";
    for (const v of values) {
      const option = document.createElement("option");
      option.value = v;
      option.textContent = v;
      select.appendChild(option);
    }
    select.value = chosen;
  }

  async function init() {
    const api = await (await fetch("/openapi.json")).json();
    const list = api.paths["/diagram"].get.parameters;
    const byName = Object.fromEntries(list.map((p) => [p.name, p]));
    for (const name of CHOICES) {
      const schema = byName[name].schema;
      defaults[name] = schema.default;
      fill($(name), schema.enum, schema.default);
      $(name).title = byName[name].description;
    }
    const size = byName.size.schema;
    defaults.size = size.default;
    maxSize = size.maximum;
    $("size").min = size.minimum;
    $("size").max = size.maximum;
    $("size").value = size.default;
    for (const name of TEXT) $(name).title = byName[name].description;

    // The page's own URL holds the state.
    const state = new URLSearchParams(location.search);
    for (const [key, value] of state) {
      const el = $(key);
      if (!el) continue;
      if (el.type === "checkbox") el.checked = value === "1" || value === "true";
      else el.value = value;
    }
    if (state.has("light") || state.has("dark")) {
      $("custom-colours").checked = true;
      $("light").disabled = $("dark").disabled = false;
    }

    $("composer").addEventListener("input", schedule);
    $("composer").addEventListener("change", schedule);
    $("composer").addEventListener("submit", (e) => { e.preventDefault(); update(); });
    $("custom-colours").addEventListener("change", (e) => {
      $("light").disabled = $("dark").disabled = !e.target.checked;
    });
    for (const b of document.querySelectorAll("button.example")) {
      b.addEventListener("click", () => { $("fen").value = b.dataset.fen; update(); });
    }
    for (const b of document.querySelectorAll("button[data-copy]")) {
      b.addEventListener("click", () => copy(b.dataset.copy, b));
    }
    update();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
