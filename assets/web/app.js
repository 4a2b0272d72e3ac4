// Staunton's composer: builds diagram URLs from the form, previews them, and writes tags.
// The option lists, defaults, limits and help texts come from /openapi.json, so the page
// offers exactly what the service accepts. No framework; the page's URL holds the state.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  // Controls whose values are free text.
  // A parameter's control has its name as id, except where the id is taken: the editor's
  // grid is #board, so `board` (the board's shape) is #board-shape.
  const ID = { board: "board-shape" };
  const idOf = (name) => ID[name] || name;
  const control = (name) => $(idOf(name));
  const TEXT = ["lastMove", "check", "arrows", "highlight", "squares", "marks", "dots", "legalMoves", "annotations", "region", "board", "labels", "caption"];
  // Controls filled from an enum of the API.
  const CHOICES = ["orientation", "coordinates", "theme", "pieces", "format", "lang"];
  // The languages of the alt text (`lang`), by their own names; and how each introduces
  // the final position of an animated game.
  const LANGUAGES = {
    en: ["English", "Animation of the game. At the end: "],
    de: ["Deutsch", "Animation der Partie. Am Ende: "],
    it: ["Italiano", "Animazione della partita. Alla fine: "],
    fr: ["Français", "Animation de la partie. À la fin\u00a0: "],
    es: ["Español", "Animación de la partida. Al final: "],
    nl: ["Nederlands", "Animatie van de partij. Aan het eind: "],
    ja: ["日本語", "対局のアニメーション。最終局面："],
  };
  const OUTPUTS = ["out-url", "out-img", "out-srcset", "out-md", "out-card"];
  // What a share card does not take: its size and format are its own, its words are its
  // title, and it is a PNG (no `auto` page).
  const NOT_ON_CARD = ["size", "format", "lang", "style", "dpi", "caption"];
  const DEBOUNCE_MS = 250;

  // Filled from /openapi.json.
  let order = [];          // parameter names in the API's order: URLs list them so
  let defaults = {};       // default values, left out of URLs
  let sizeMin = 16;
  let sizeMax = 2048;

  let timer = null;
  let generation = 0;      // the latest update; older answers are dropped
  // Pairs of the page's URL that no control takes (a diagram URL's query pasted onto the
  // page): kept in every URL, so the service's Staunton-Warning says what it ignored.
  let extras = [];

  // --- small helpers -----------------------------------------------------------------

  function escapeAttr(text) {
    return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;")
      .replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  function escapeMarkdownAlt(text) {
    return String(text).replace(/[\\[\]]/g, "\\$&");
  }

  // A query value, percent-encoded but keeping the characters that read well in a URL
  // (/ , : @ are allowed in a query). Spaces become +, as in a form.
  function encodeValue(value) {
    return encodeURIComponent(value)
      .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
      .replace(/%20/g, "+")
      .replace(/%2F/g, "/").replace(/%2C/g, ",").replace(/%3A/g, ":").replace(/%40/g, "@");
  }

  function queryString(pairs) {
    return pairs.map(([k, v]) => k + "=" + encodeValue(v)).join("&");
  }

  // "#abc" or "abc" -> "#aabbcc", "aabbcc" -> "#aabbcc", for <input type=color> (the
  // service takes a colour with or without its #); anything else is returned as is.
  function longColour(value) {
    const m = /^#?([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
    if (m) return ("#" + m[1] + m[1] + m[2] + m[2] + m[3] + m[3]).toLowerCase();
    return (/^[0-9a-f]{6}$/i.test(value) ? "#" + value : value).toLowerCase();
  }

  // Text with `code` spans, as DOM nodes (never innerHTML).
  function setRichText(el, text) {
    el.textContent = "";
    String(text).split("`").forEach((part, i) => {
      if (!part) return;
      if (i % 2) {
        const code = document.createElement("code");
        code.textContent = part;
        el.appendChild(code);
      } else {
        el.appendChild(document.createTextNode(part));
      }
    });
  }

  // --- the form's state --------------------------------------------------------------

  // Every parameter the form sets, defaults left out, in the API's order.
  // A game in the PGN box stands in for the FEN.
  function gameText() {
    return $("pgn").value.trim();
  }

  // Whether the whole game is asked for, as an animation.
  function wholeGame() {
    return gameText() !== "" && $("whole").checked;
  }

  function params(overrides) {
    const p = new Map();
    const pgn = gameText();
    if (pgn) {
      p.set("pgn", pgn);
      const ply = $("ply");
      if (!wholeGame() && ply.value !== ply.max) p.set("ply", ply.value);
    } else {
      p.set("fen", $("fen").value.trim());
    }
    const size = $("size").value.trim();
    if (size !== "" && size !== String(defaults.size)) p.set("size", size);
    for (const name of CHOICES) {
      const v = $(name).value;
      if (v && v !== defaults[name]) p.set(name, v);
    }
    if ($("custom-colours").checked) {
      p.set("light", $("light").value);
      p.set("dark", $("dark").value);
    }
    for (const name of TEXT) {
      const v = control(name).value.trim();
      if (v) p.set(name, v);
    }
    if ($("turn").checked) p.set("turn", "1");
    // How the FEN is read: a list of the page's own (the dialects the service names).
    if (!pgn && $("dialect").value !== "standard") p.set("dialect", $("dialect").value);
    // The page's colour: a list of the page's own (the API takes colours too).
    if ($("background").value !== "light") p.set("background", $("background").value);
    for (const [k, v] of Object.entries(overrides || {})) {
      if (v === null || String(v) === String(defaults[k])) p.delete(k);
      else p.set(k, String(v));
    }
    const names = order.concat([...p.keys()].filter((k) => !order.includes(k)));
    return names.filter((k) => p.has(k)).map((k) => [k, p.get(k)]).concat(extras);
  }

  // What the service is asked for `pairs`: /diagram.png or /diagram.svg, format left out;
  // the whole game is /game.gif. `lang` titles an SVG; pixels have no words, so other
  // requests leave it out. The page draws from the same pairs (see drawHere).
  function requestOf(pairs) {
    if (wholeGame()) {
      const rest = pairs.filter(([k]) => k !== "format" && k !== "ply" && k !== "lang");
      return { path: "/game.gif", type: "image/gif", rest };
    }
    const svg = pairs.some(([k, v]) => k === "format" && v === "svg");
    const rest = pairs.filter(([k]) => k !== "format" && (svg || k !== "lang"));
    return svg ? { path: "/diagram.svg", type: "image/svg+xml", rest }
      : { path: "/diagram.png", type: "image/png", rest };
  }

  // The absolute URL of the diagram, on the service.
  function diagramUrl(pairs) {
    const r = requestOf(pairs);
    return location.origin + r.path + "?" + queryString(r.rest);
  }

  // The page's own URL: the same names as the API (and `whole=1` for the animation);
  // `fen=start` alone is just `/`.
  function saveState(pairs) {
    const kept = pairs.filter(([k, v]) => !(k === "fen" && v === "start"));
    if (wholeGame()) kept.push(["whole", "1"]);
    const url = location.pathname + (kept.length ? "?" + queryString(kept) : "");
    if (url !== location.pathname + location.search) history.replaceState(null, "", url);
  }

  // The game controls show when the PGN box holds a game.
  function syncGame() {
    const game = gameText() !== "";
    $("ply-field").hidden = !game;
    $("whole-field").hidden = !game;
    $("whole-help").hidden = !game;
    $("ply").disabled = wholeGame();
    $("fen").disabled = game;
  }

  function restoreState() {
    const state = new URLSearchParams(location.search);
    // A ply from the URL before the game's length is known: room for it first.
    if (state.has("ply")) $("ply").max = String(Math.max(Number(state.get("ply")) || 0, 0));
    $("whole").checked = state.get("whole") === "1";
    extras = [];
    for (const [key, value] of state) {
      const el = control(key);
      if (!el || !el.name || el.name !== key) {
        // A name of the API under another case would override the form: left out.
        const api = order.some((n) => n.toLowerCase() === key.toLowerCase());
        if (key !== "whole" && !api) extras.push([key, value]);
        continue;
      }
      if (el.type === "checkbox") el.checked = /^(1|true|yes|on)$/i.test(value);
      else if (el.type === "color") el.value = longColour(value);
      else if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === value)) {
        // A value the service does not list: keep it, so its error shows.
        addOption(el, value, value);
        el.value = value;
      } else el.value = value;
    }
    const custom = state.has("light") || state.has("dark");
    $("custom-colours").checked = custom;
    syncColours();
    syncGame();
  }

  function syncColours() {
    const on = $("custom-colours").checked;
    $("light").disabled = !on;
    $("dark").disabled = !on;
    $("colours").classList.toggle("off", !on);
  }

  // --- errors ------------------------------------------------------------------------

  function clearErrors() {
    for (const el of document.querySelectorAll(".error")) el.textContent = "";
    for (const el of document.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  }

  // The service's sentence starts with the parameter's name: show it by that control.
  function showError(sentence) {
    clearErrors();
    const first = (sentence.match(/^[A-Za-z_]+/) || [""])[0].toLowerCase();
    const name = order.concat(["fen"]).find((n) => n.toLowerCase() === first);
    const field = name && control(name);
    const place = field && $(idOf(name) + "-error");
    if (place) {
      place.textContent = sentence;
      field.setAttribute("aria-invalid", "true");
      if (name === "light" || name === "dark") $("colours").classList.remove("off");
    } else {
      $("error").textContent = sentence;
    }
    return name;
  }

  // The service's Staunton-Warning (names it ignored, with the nearest known name), shown
  // under the diagram; nothing when the answer has none.
  function showWarning(response) {
    const text = response ? response.headers.get("staunton-warning") : null;
    $("warning").textContent = text ? "Ignored by the service: " + text : "";
  }

  // --- rendering ---------------------------------------------------------------------

  function setStatus(text, href) {
    $("status-text").textContent = text;
    const open = $("open");
    open.hidden = !href;
    if (href) open.href = href;
  }

  function showPlaceholder(text) {
    // Keep the frame's height while a value is being fixed, so the page does not jump.
    if (!$("preview").hidden) $("frame").style.minHeight = $("frame").offsetHeight + "px";
    $("preview").hidden = true;
    $("placeholder").hidden = false;
    $("placeholder").textContent = text;
    for (const id of OUTPUTS) $(id).value = "";
    for (const el of document.querySelectorAll(".outputs textarea")) fit(el);
    resetCopyButtons(true);
  }

  async function update() {
    clearTimeout(timer);
    const mine = ++generation;
    const started = performance.now();
    // The board editor (editor.js) follows the form.
    document.dispatchEvent(new CustomEvent("composer:update"));
    const pairs = params();
    saveState(pairs);
    const url = diagramUrl(pairs);
    // What /describe is asked: the FEN, or the game and its ply (the end, for the whole
    // game), in the alt text's language.
    const about = pairs.filter(([k]) => k === "fen" || k === "dialect" || k === "board" || k === "pgn" || k === "lang" || (k === "ply" && !wholeGame()));
    const known = about.some(([k, v]) => (k === "fen" || k === "pgn") && v);
    $("frame").setAttribute("aria-busy", "true");
    setStatus("Rendering…");
    // Names no control takes go to the service, whose Staunton-Warning names them.
    const here = drawer && extras.length === 0 ? drawHere(pairs, about, known) : null;
    if (here && here.error) {
      refused(here.error);
    } else if (here) {
      showGame(here.plies, null);
      clearErrors();
      showWarning(null);
      display({ mine, pairs, url, started }, URL.createObjectURL(here.blob), here.alt, "page");
    } else {
      await fromService({ mine, pairs, url, started }, about, known);
    }
  }

  // The answer of a bad value: the service's sentence by its control, no diagram.
  function refused(sentence) {
    $("frame").setAttribute("aria-busy", "false");
    const name = showError(sentence);
    showPlaceholder(name ? `No diagram: see the message by “${labelOf(name)}”.` : "No diagram.");
    setStatus("");
  }

  // The preview from the service: the image URL, and /describe for the alt text.
  async function fromService(ask, about, known) {
    const mine = ask.mine;
    // Fetch first: a bad value answers a sentence, which belongs next to its control,
    // not in a broken image. On success the image comes from the browser's cache.
    let response;
    let describe;
    try {
      [response, describe] = await Promise.all([
        fetch(ask.url),
        known ? fetch("/describe?" + queryString(about)).catch(() => null) : null,
      ]);
    } catch (e) {
      if (mine !== generation) return;
      $("frame").setAttribute("aria-busy", "false");
      showWarning(null);
      clearErrors();
      $("error").textContent = "The service cannot be reached; check your connection and try again.";
      showPlaceholder("No diagram.");
      setStatus("");
      return;
    }
    if (!response.ok) {
      const sentence = (await response.text()).trim() || `The service answered ${response.status}.`;
      if (mine !== generation) return;
      showWarning(response);
      refused(sentence);
      return;
    }
    await response.arrayBuffer();  // read it whole, so the image is served from cache
    let alt = "Chess diagram";
    let plies = null;
    let lastMove = null;
    if (describe && describe.ok) {
      alt = (await describe.text()).trim() || alt;
      plies = describe.headers.get("x-game-plies");
      lastMove = describe.headers.get("x-last-move");
    }
    if (mine !== generation) return;
    clearErrors();
    showWarning(response);
    if (plies !== null) showGame(Number(plies), lastMove);
    if (wholeGame()) alt = (LANGUAGES[$("lang").value] || LANGUAGES.en)[1] + alt;
    display(ask, ask.url, alt, "service");
  }

  // Show `src` (the service's URL, or a blob: URL of the image drawn in the page) as the
  // preview of `ask.url`, then write the outputs, which always name the service's URL.
  // `data-drawn` says who drew it; a measure "composer:preview" times the edit.
  function display(ask, src, alt, drawn) {
    const { mine, pairs, url } = ask;
    const img = $("preview");
    const shown = () => {
      if (mine !== generation) return;
      img.hidden = false;
      $("placeholder").hidden = true;
      $("frame").style.minHeight = "";
      $("frame").setAttribute("aria-busy", "false");
      writeOutputs(pairs, url, alt, img.naturalWidth, img.naturalHeight);
      const kind = url.includes("/diagram.svg?") ? "SVG" : url.includes("/game.gif?") ? "Animated GIF" : "PNG";
      const where = drawn === "page" ? " Drawn in this page." : "";
      setStatus(`${kind}, ${img.naturalWidth} × ${img.naturalHeight} pixels.${where}`, url);
      performance.measure("composer:preview", { start: ask.started, detail: { drawn, url } });
    };
    img.onload = shown;
    img.onerror = () => {
      if (mine !== generation) return;
      $("frame").setAttribute("aria-busy", "false");
      showPlaceholder("The image could not be shown.");
      setStatus("");
    };
    img.alt = alt;
    img.dataset.drawn = drawn;
    img.dataset.url = url;
    if (drawnUrl && drawnUrl !== src) URL.revokeObjectURL(drawnUrl);
    drawnUrl = drawn === "page" ? src : "";
    if (img.src === src && img.complete && img.naturalWidth > 0) shown();
    else img.src = src;
  }

  // --- drawing in the page -----------------------------------------------------------
  // A service built with the `composer-wasm` feature lists /js/web.js and /js/staunton.wasm
  // in /openapi.json. The page then loads the renderer as WebAssembly once and draws each
  // preview itself, from the pairs of the URL it shows: no request per edit, and it goes
  // on working when the service stops. The URLs it writes still name the service.

  let drawer = null;       // the package's browser entry (/js/web.js) once ready, else null
  let drawnUrl = "";       // the blob: URL the preview shows, revoked when replaced
  const lengths = new Map();   // a game's text → its length in plies, found in the page

  async function loadDrawer(api) {
    if (!api.paths["/js/web.js"] || !api.paths["/js/staunton.wasm"]) return null;
    try {
      const lib = await import("/js/web.js");
      await lib.init(new URL("/js/staunton.wasm", location.href));
      return lib;
    } catch (e) {
      return null;  // the service draws, as without the feature
    }
  }

  // The board editor's picture (editor.js asks for `url`, a /diagram.svg URL of this
  // service): the same SVG drawn here, as a blob: URL; null when the service is to draw it.
  window.stauntonComposer = {
    drawSvg(url) {
      if (!drawer) return null;
      try {
        const options = Object.fromEntries(new URL(url, location.href).searchParams);
        return URL.createObjectURL(new Blob([drawer.svg(undefined, options)], { type: "image/svg+xml" }));
      } catch (e) {
        return null;
      }
    },
  };

  // A bad value, which the service would refuse with the same sentence: the package throws
  // it as an Error naming the parameter at fault (`param`). The rest is the service's to
  // try: a TypeError (an option the package does not take as the page gave it), an Error
  // without a parameter (the render failed, or the module is not ready), and a piece set
  // the module lacks (the service may have loaded more).
  function badInput(e) {
    return e instanceof Error && !(e instanceof TypeError)
      && typeof e.param === "string" && e.param !== "" && e.param !== "pieces";
  }

  // The preview of `pairs` drawn here: { blob, alt, plies }; { error } for a bad value;
  // null when the page cannot draw it (the service then does).
  function drawHere(pairs, about, known) {
    const r = requestOf(pairs);
    const options = Object.fromEntries(r.rest);
    try {
      let data;
      if (r.type === "image/gif") {
        const pgn = options.pgn;
        delete options.pgn;
        data = drawer.gameGif(pgn, options);
      } else if (r.type === "image/svg+xml") {
        data = drawer.svg(undefined, options);
      } else {
        data = drawer.png(undefined, options);
      }
      const game = gameText() !== "" ? gameLength(gameText()) : null;
      let alt = known ? drawer.describe(undefined, Object.fromEntries(about)) : "Chess diagram";
      if (wholeGame()) alt = (LANGUAGES[$("lang").value] || LANGUAGES.en)[1] + alt;
      return { blob: new Blob([data], { type: r.type }), alt, plies: game };
    } catch (e) {
      if (badInput(e)) return { error: e.message };
      return null;
    }
  }

  // The number of plies of `pgn`: the last ply the renderer accepts (a doubling, then a
  // halving search, a dozen reads of the game at most), kept per text.
  function gameLength(pgn) {
    if (lengths.has(pgn)) return lengths.get(pgn);
    const fits = (ply) => {
      try {
        drawer.describe(undefined, { pgn, ply: String(ply) });
        return true;
      } catch (e) {
        if (ply === 0 || !badInput(e)) throw e;
        return false;
      }
    };
    fits(0);
    let low = 0;
    let high = 1;
    while (fits(high)) { low = high; high *= 2; }
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (fits(mid)) low = mid; else high = mid;
    }
    if (lengths.size > 20) lengths.clear();
    lengths.set(pgn, low);
    return low;
  }

  // The slider's range is the game's length; at the end unless a ply was chosen. The
  // move's name comes from the service (/describe); drawn in the page, the ply's number.
  function showGame(plies, lastMove) {
    if (plies === null) return;
    const ply = $("ply");
    const atEnd = ply.value === ply.max;
    ply.max = String(plies);
    if (atEnd || Number(ply.value) > plies) ply.value = String(plies);
    $("ply-now").textContent = wholeGame() ? `${plies} moves (plies), then the final position.`
      : lastMove ? `After ${lastMove} (ply ${ply.value} of ${plies})`
      : ply.value === "0" ? `The start (ply 0 of ${plies})` : `Ply ${ply.value} of ${plies}`;
  }

  function labelOf(name) {
    const label = document.querySelector(`label[for="${idOf(name)}"]`);
    return label ? (label.dataset.short || label.textContent.trim()) : name;
  }

  // Output boxes grow to show their whole text (up to a limit), so nothing is cut mid-line.
  function fit(textarea) {
    textarea.style.height = "auto";
    if (!textarea.value) return;
    const limit = 12 * parseFloat(getComputedStyle(textarea).lineHeight || "16");
    textarea.style.height = Math.min(textarea.scrollHeight + 2, limit) + "px";
  }

  function resetCopyButtons(disabled) {
    for (const b of document.querySelectorAll("button.copy")) {
      b.disabled = disabled;
      b.querySelector(".copy-text").textContent = "Copy";
      b.classList.remove("done");
    }
  }

  function writeOutputs(pairs, url, alt, width, height) {
    const a = escapeAttr(alt);
    const dims = `width="${width}" height="${height}"`;
    $("out-url").value = url;
    $("out-img").value = `<img src="${escapeAttr(url)}" ${dims} alt="${a}">`;

    const sizePair = pairs.find(([k]) => k === "size");
    const size = Number(sizePair ? sizePair[1] : defaults.size);
    const double = Math.min(size * 2, sizeMax);
    if (double > size && !wholeGame()) {
      const url2 = diagramUrl(params({ size: double }));
      const density = String(Math.round((double / size) * 100) / 100) + "x";
      $("out-srcset").value =
        `<img src="${escapeAttr(url)}" srcset="${escapeAttr(url2)} ${density}" ${dims} alt="${a}">`;
    } else {
      // Already the largest size: a second density would be the same image.
      $("out-srcset").value = `<img src="${escapeAttr(url)}" ${dims} alt="${a}">`;
    }
    $("out-md").value = `![${escapeMarkdownAlt(alt)}](${url})`;
    const card = pairs.filter(([k, v]) => !NOT_ON_CARD.includes(k) && !(k === "background" && v === "auto"));
    const caption = $("caption").value.trim();
    if (caption && caption !== "fen" && caption !== "move") card.push(["title", caption]);
    $("out-card").value = `<meta property="og:image" content="${escapeAttr(location.origin + "/card.png?" + queryString(card))}">`;
    for (const el of document.querySelectorAll(".outputs textarea")) fit(el);
    for (const b of document.querySelectorAll("button.copy")) b.disabled = false;
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(update, DEBOUNCE_MS);
  }

  // --- copying -----------------------------------------------------------------------

  async function copy(button) {
    const field = $(button.dataset.copy);
    if (!field.value) return;
    let done = false;
    try {
      await navigator.clipboard.writeText(field.value);
      done = true;
    } catch (e) {
      // No async clipboard (an insecure origin, or refused): the old way.
      field.focus();
      field.select();
      try { done = document.execCommand("copy"); } catch (e2) { done = false; }
      // Copied: back to the button. Not copied: leave the text selected, for Ctrl+C.
      if (done) button.focus();
    }
    const what = labelOf(field.id);
    button.querySelector(".copy-text").textContent = done ? "Copied" : "Selected";
    button.classList.toggle("done", done);
    $("copied").textContent = done ? `${what} copied to the clipboard.`
      : `Could not copy; the ${what} text is selected, copy it with the keyboard.`;
    clearTimeout(button.resetTimer);
    button.resetTimer = setTimeout(() => {
      button.querySelector(".copy-text").textContent = "Copy";
      button.classList.remove("done");
    }, 2000);
  }

  // --- start -------------------------------------------------------------------------

  function addOption(select, value, text) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.appendChild(option);
  }

  // How a value reads in a list: file formats in capitals, other words capitalised.
  function optionText(value, name) {
    if (name === "lang" && LANGUAGES[value]) return LANGUAGES[value][0];
    if (/^(png|svg)$/.test(value)) return value.toUpperCase();
    return value.charAt(0).toUpperCase() + value.slice(1);
  }

  function fill(select, values, chosen) {
    select.textContent = "";
    for (const v of values) addOption(select, v, optionText(v, select.id));
    select.value = chosen;
  }

  function help(name, description) {
    const el = $(idOf(name) + "-help");
    // "Also spelled: …" lists aliases for URL writers; the form uses the main name.
    if (el && description) setRichText(el, description.replace(/\s*Also spelled:.*$/, ""));
  }

  function resetOptions() {
    for (const name of CHOICES) $(name).value = defaults[name];
    $("size").value = defaults.size;
    for (const name of TEXT) control(name).value = "";
    $("background").value = "light";
    $("turn").checked = false;
    $("whole").checked = false;
    syncGame();
    $("custom-colours").checked = false;
    syncColours();
    update();
  }

  async function init() {
    let api;
    try {
      const r = await fetch("/openapi.json");
      if (!r.ok) throw new Error(String(r.status));
      api = await r.json();
    } catch (e) {
      $("error").textContent = "The service’s description (/openapi.json) could not be loaded; reload the page.";
      showPlaceholder("No diagram.");
      return;
    }
    // The renderer loads beside the first preview (which the service draws); from then on
    // the page draws. <html data-drawing="page"> says so.
    loadDrawer(api).then((lib) => {
      drawer = lib;
      if (!lib) return;
      document.documentElement.dataset.drawing = "page";
      performance.mark("composer:drawing");
    });
    const list = api.paths["/diagram"].get.parameters;
    const byName = Object.fromEntries(list.map((p) => [p.name, p]));
    order = list.map((p) => p.name);
    for (const name of CHOICES) {
      const schema = byName[name].schema;
      defaults[name] = schema.default;
      fill($(name), schema.enum, schema.default);
    }
    const size = byName.size.schema;
    defaults.size = size.default;
    sizeMin = size.minimum;
    sizeMax = size.maximum;
    $("size").min = sizeMin;
    $("size").max = sizeMax;
    $("size").value = size.default;
    for (const p of list) help(p.name, p.description);
    $("size-help").textContent = `From ${sizeMin} to ${sizeMax}; ${size.default} if left empty.`;
    for (const name of CHOICES) {
      const el = $(name + "-help");
      if (el) el.appendChild(document.createTextNode(` Default: ${optionText(defaults[name], name)}.`));
    }
    if (byName.light) setRichText($("colours-help"), "Each overrides the theme’s colour of those squares.");
    $("dialect-help").appendChild(document.createTextNode(
      " Placing a neutral or turned piece, a marker or text on the board above switches to Fairy FEN."));

    restoreState();

    const form = $("composer");
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    form.addEventListener("submit", (e) => { e.preventDefault(); update(); });
    $("custom-colours").addEventListener("change", syncColours);
    $("pgn").addEventListener("input", syncGame);
    $("whole").addEventListener("change", syncGame);
    for (const b of document.querySelectorAll("button.example-game")) {
      b.addEventListener("click", () => {
        $("pgn").value = b.dataset.pgn;
        $("ply").max = "0";
        $("ply").value = "0";
        syncGame();
        update();
      });
    }
    $("reset").addEventListener("click", resetOptions);
    for (const b of document.querySelectorAll("button.example")) {
      b.addEventListener("click", () => {
        $("pgn").value = "";
        syncGame();
        $("fen").value = b.dataset.fen;
        $("lastMove").value = b.dataset.lastMove || "";
        $("check").value = b.dataset.check || "";
        update();
      });
    }
    for (const b of document.querySelectorAll("button.copy")) {
      b.addEventListener("click", () => copy(b));
    }
    let refit = 0;
    window.addEventListener("resize", () => {
      cancelAnimationFrame(refit);
      refit = requestAnimationFrame(() => { for (const el of document.querySelectorAll(".outputs textarea")) fit(el); });
    });
    // Ctrl/Cmd+Enter in the FEN box renders at once.
    $("fen").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); update(); }
    });
    update();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
