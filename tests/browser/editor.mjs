// End-to-end test of the board editor on the front page, driven as a person would: real
// pointer, touch and keyboard events in headless Chromium (Debian's package).
//
//   STAUNTON_URL=http://127.0.0.1:8080 node tests/browser/editor.mjs
//
// 1. With the mouse, from the empty board: the position after 1.e4 e5 2.Nf3 by drags from
//    the palette, Black to move and all castling rights by clicks, a red arrow by Shift-drag,
//    a flip, two undos; the produced URL's fen, arrows and orientation at each step, and the
//    preview's pixels against the service's own picture of the expected position.
// 2. The same with the keyboard only.
// 3. A phone-width page with touch: a piece placed by taps, moved by a touch drag.
// Screenshots of the editor, light and dark, at 1200 and 390 px go to $SHOTS.
// Exits non-zero on any failure, with the failed check's message.

import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

const base = (process.env.STAUNTON_URL || "http://127.0.0.1:8080").replace(/\/+$/, "");
const shots = resolve(process.env.SHOTS || "target/browser");
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
mkdirSync(shots, { recursive: true });

let passed = 0;
function check(condition, message) {
  if (!condition) throw new Error("FAILED: " + message);
  passed += 1;
  console.log("ok " + passed + " - " + message);
}

// The position after 1.e4 e5 2.Nf3, as pieces to put on squares (white capitals).
const AFTER = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq";
const PIECES = [];
{
  const ranks = AFTER.split(" ")[0].split("/");
  ranks.forEach((rank, r) => {
    let file = 0;
    for (const c of rank) {
      if (/\d/.test(c)) { file += Number(c); continue; }
      PIECES.push([c, "abcdefgh"[file] + (8 - r)]);
      file += 1;
    }
  });
}

// The produced diagram URL's parameters.
async function produced(page) {
  const url = await page.inputValue("#out-url");
  return new URL(url).searchParams;
}
const fenHead = (fen) => (fen || "").split(" ").slice(0, 3).join(" ");

// Wait until the produced URL satisfies `test` (run here, on its parameters) and the preview
// shows that URL, loaded. (Polled from here: the page's CSP forbids evaluating new code.)
async function waitForOutput(page, test, what, timeout = 15000) {
  const until = Date.now() + timeout;
  let out = "";
  while (Date.now() < until) {
    const state = await page.evaluate(() => {
      const img = document.querySelector("#preview");
      return {
        out: document.querySelector("#out-url").value,
        loaded: !img.hidden && img.complete && img.naturalWidth > 0 ? img.currentSrc : "",
      };
    });
    out = state.out;
    if (out && state.loaded === out && test(new URL(out).searchParams)) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`FAILED: waiting for ${what}; the URL is ${out}`);
}

// The preview against the service's PNG of `query`: the share of differing pixels.
async function previewDiffers(page, query) {
  return page.evaluate(async (query) => {
    const load = (src) => new Promise((ok, fail) => {
      const img = new Image();
      img.onload = () => ok(img);
      img.onerror = () => fail(new Error("cannot load " + src));
      img.src = src;
    });
    const pixels = (img) => {
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      return g.getImageData(0, 0, c.width, c.height).data;
    };
    const shown = document.querySelector("#preview");
    const expected = await load("/diagram.png?" + query);
    if (expected.naturalWidth !== shown.naturalWidth || expected.naturalHeight !== shown.naturalHeight) return 1;
    const a = pixels(shown);
    const b = pixels(expected);
    let differ = 0;
    for (let i = 0; i < a.length; i += 4) {
      if (Math.abs(a[i] - b[i]) > 3 || Math.abs(a[i + 1] - b[i + 1]) > 3 || Math.abs(a[i + 2] - b[i + 2]) > 3) differ++;
    }
    return differ / (a.length / 4);
  }, query);
}

// Scroll the tools, the palette and the board into view (as a person would before dragging; the
// page's other controls, used in between, may have scrolled them away).
/** The editor's coordinates: the files' letters, the ranks' numbers, and "clear" when no
 * label overlaps the board's squares (they stand outside it). */
async function coordinates(page) {
  return page.evaluate(() => {
    const board = document.getElementById("board").getBoundingClientRect();
    const spans = (name) => [...document.querySelectorAll(`.coords.${name} span`)];
    const inside = (r) => r.right > board.left && r.left < board.right && r.bottom > board.top && r.top < board.bottom;
    const all = [...spans("files"), ...spans("ranks")];
    const clear = all.length > 0 && all.every((s) => !inside(s.getBoundingClientRect()) && s.getBoundingClientRect().width > 0);
    const text = (name) => spans(name).map((s) => s.textContent).join("");
    return `${text("files")} ${text("ranks")} ${clear ? "clear" : "overlapping"}`;
  });
}

async function showEditor(page) {
  await page.locator("#tools").evaluate((el) => el.scrollIntoView({ block: "start" }));
}

async function centre(page, selector) {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error("FAILED: " + selector + " is not on screen");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

async function drag(page, from, to, { button = "left", modifiers = [] } = {}) {
  for (const m of modifiers) await page.keyboard.down(m);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down({ button });
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up({ button });
  for (const m of modifiers.reverse()) await page.keyboard.up(m);
}

const square = (s) => `#board [data-square="${s}"]`;
const paletteButton = (p) => `#palette button[data-piece="${p}"]`;

async function emptyEditor(page) {
  const r = await page.goto(base + "/?fen=empty");
  check(r && r.ok(), "the page opens on an empty board");
  await page.waitForFunction(() => document.querySelectorAll("#board [role=gridcell]").length === 64);
  await waitForOutput(page, (p) => p.get("fen") === "empty", "the empty board's preview");
}

let browser;
let failed = false;
try {
  browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`console: ${m.text()}`); });
  page.on("request", (r) => { if (!r.url().startsWith(base + "/") && !r.url().startsWith("data:")) problems.push("other origin: " + r.url()); });
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} for ${r.url()}`); });

  // --- the grid for assistive technology ------------------------------------------------
  await emptyEditor(page);
  check(await page.getAttribute("#board", "role") === "grid", "the board is a grid");
  check(await page.locator("#board [role=row]").count() === 8, "of 8 rows");
  check(await page.locator("#board [role=gridcell]").count() === 64, "and 64 cells");
  check(await page.getAttribute(square("f3"), "aria-label") === "f3, empty", "a cell is named by its square and what stands on it");
  check(await page.locator("#palette img").first().evaluate((img) => img.complete && img.naturalWidth > 0),
    "the palette shows the piece set's pieces");
  check((await page.getAttribute("#board-img", "src") || "").includes("coordinates=none"),
    "the board image has no coordinates in its squares");
  check(await coordinates(page) === "abcdefgh 87654321 clear",
    "the files' letters under the board and the ranks' numbers left of it, clear of the squares");

  // --- 1. by mouse ---------------------------------------------------------------------
  for (const [piece, sq] of PIECES) {
    await drag(page, await centre(page, paletteButton(piece)), await centre(page, square(sq)));
  }
  await page.selectOption("#ed-side", "b");
  for (const right of ["K", "Q", "k", "q"]) await page.check(`#ed-castling input[value="${right}"]`);
  await waitForOutput(page, (p) => (p.get("fen") || "").startsWith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq"),
    "the position built by drags");
  check(fenHead((await produced(page)).get("fen")) === AFTER, "32 drags from the palette build the position after 1.e4 e5 2.Nf3");
  check(await page.getAttribute(square("f3"), "aria-label") === "f3, white knight", "its cell reads “f3, white knight”");
  const differ = await previewDiffers(page, "fen=" + encodeURIComponent(AFTER + " - 1 2"));
  check(differ === 0, `the preview's pixels are the service's picture of that position (${(differ * 100).toFixed(2)} % differ)`);

  // A piece dragged across the board and one dragged off it.
  await drag(page, await centre(page, square("f3")), await centre(page, square("g5")));
  await waitForOutput(page, (p) => (p.get("fen") || "").startsWith("rnbqkbnr/pppp1ppp/8/4p1N1/4P3/8/"), "the knight on g5");
  check(/white knight from f3 to g5/.test(await page.textContent("#editor-live")), "the move is announced");
  await showEditor(page);
  const knight = await centre(page, square("g5"));
  const board = await page.locator("#board").boundingBox();
  await drag(page, knight, { x: board.x + board.width + 60, y: board.y + 40 });
  await waitForOutput(page, (p) => fenHead(p.get("fen")).startsWith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/"), "the knight dropped off the board");
  check(true, "a piece dragged off the board is removed");
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await waitForOutput(page, (p) => fenHead(p.get("fen")) === AFTER, "the knight back on f3");
  check(true, "two undos put the knight back on f3");

  // A red arrow by Shift-drag (right button), then a flip.
  await drag(page, await centre(page, square("f3")), await centre(page, square("e5")), { button: "right", modifiers: ["Shift"] });
  await waitForOutput(page, (p) => p.get("arrows") === "Rf3e5", "the red arrow");
  check((await produced(page)).get("arrows") === "Rf3e5", "Shift-drag draws a red arrow: arrows=Rf3e5");
  await page.click("#ed-flip");
  await waitForOutput(page, (p) => p.get("orientation") === "black", "the flip");
  check((await produced(page)).get("orientation") === "black" && (await produced(page)).get("arrows") === "Rf3e5",
    "Flip turns the board: orientation=black, the arrow kept");
  const flipped = await page.evaluate(() => {
    const a = document.querySelector('#board [data-square="h1"]').getBoundingClientRect();
    const b = document.querySelector('#board [data-square="a8"]').getBoundingClientRect();
    return a.left < b.left && a.top < b.top;
  });
  check(flipped, "the flipped grid has h1 at the top left");
  check(await coordinates(page) === "hgfedcba 12345678 clear", "the flipped board's coordinates read h to a and 1 to 8");
  await page.screenshot({ path: join(shots, "editor-1200.png"), fullPage: false });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForTimeout(400);   // the buttons' colour transitions
  await page.screenshot({ path: join(shots, "editor-1200-dark.png"), fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });

  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await waitForOutput(page, (p) => !p.has("orientation") && !p.has("arrows"), "two undos");
  const undone = await produced(page);
  check(fenHead(undone.get("fen")) === AFTER && !undone.has("arrows") && !undone.has("orientation"),
    "undo twice: the same position, no arrow, White at the bottom");
  check(await previewDiffers(page, "fen=" + encodeURIComponent(AFTER + " - 1 2")) === 0, "and the preview shows exactly that");
  await page.keyboard.press("Control+y");
  await waitForOutput(page, (p) => p.get("arrows") === "Rf3e5", "redo");
  check(true, "Ctrl+Y redoes the arrow");
  // The same gesture again removes it.
  await drag(page, await centre(page, square("f3")), await centre(page, square("e5")), { button: "right", modifiers: ["Shift"] });
  await waitForOutput(page, (p) => !p.has("arrows"), "the arrow removed");
  check(true, "the same Shift-drag again removes the arrow");

  // Marks tool: a click highlights (Alt: blue); crosses tool toggles a cross.
  await page.click('#tools button[data-tool="marks"]');
  await page.click(square("d4"), { modifiers: ["Alt"] });
  await waitForOutput(page, (p) => p.get("highlight") === "Bd4", "the blue highlight");
  check(true, "with the Arrows tool, Alt+click highlights d4 in blue");
  await page.click('#tools button[data-tool="crosses"]');
  await page.click(square("c6"));
  await waitForOutput(page, (p) => p.get("squares") === "c6", "the cross");
  check(true, "the Crosses tool puts a cross on c6");
  await page.click("#ed-clear");
  await waitForOutput(page, (p) => !p.has("squares") && !p.has("highlight"), "marks cleared");
  check(true, "Clear marks removes them");
  await page.click('#tools button[data-tool="move"]');

  // --- fairy figures: neutral pieces, turns, text and markers ---------------------------
  await emptyEditor(page);
  check(await page.inputValue("#dialect") === "standard", "the FEN dialect starts as standard");
  await drag(page, await centre(page, paletteButton("-k")), await centre(page, square("e4")));
  await waitForOutput(page, (p) => p.get("dialect") === "fairy" && fenHead(p.get("fen")).startsWith("8/8/8/8/4-k3/"),
    "the neutral king");
  check(await page.inputValue("#dialect") === "fairy", "placing a neutral king switches the dialect to Fairy FEN");
  check(await page.getAttribute(square("e4"), "aria-label") === "e4, neutral king", "its cell reads “e4, neutral king”");
  await drag(page, await centre(page, paletteButton("Q")), await centre(page, square("d1")));
  await page.click(square("d1"), { modifiers: ["Shift"] });
  await page.click("#ed-turn");
  await waitForOutput(page, (p) => fenHead(p.get("fen")).startsWith("8/8/8/8/4-k3/8/8/3*2Q4"), "the queen turned twice");
  check(await page.getAttribute(square("d1"), "aria-label") === "d1, white queen upside down",
    "Shift+click and Turn 90° turn the queen upside down (*2Q)");
  await page.focus(square("e4"));
  await page.keyboard.press("t");
  await waitForOutput(page, (p) => fenHead(p.get("fen")).startsWith("8/8/8/8/4-*1k3/"), "the king turned by T");
  check(await page.getAttribute(square("e4"), "aria-label") === "e4, neutral king turned a quarter to the right",
    "T on the board turns the focused piece a quarter clockwise (-*1k)");
  await page.click(square("c3"));
  await page.fill("#ed-text", "12");
  await page.click("#ed-write");
  await showEditor(page);
  await drag(page, await centre(page, '#palette button.marker[data-piece="C"]'), await centre(page, square("f6")));
  const FAIRY = "8/8/5C2/8/4-*1k3/2''125/8/3*2Q4";
  await waitForOutput(page, (p) => (p.get("fen") || "").startsWith(FAIRY + " "), "the text and the circle");
  check(await page.getAttribute(square("c3"), "aria-label") === "c3, text “12”", "Write puts the text “12” on c3");
  check(await page.getAttribute(square("f6"), "aria-label") === "f6, white circle", "the palette's circle marker is on f6");
  const fairyFen = (await produced(page)).get("fen");
  const fairyDiffer = await previewDiffers(page, "dialect=fairy&fen=" + encodeURIComponent(fairyFen));
  check(fairyDiffer === 0, `the preview is the service's Fairy FEN diagram (${(fairyDiffer * 100).toFixed(2)} % differ)`);
  await page.waitForFunction(() => /Neutral: King \(turned a quarter to the right\) e4/.test(document.querySelector("#out-img").value), null, { timeout: 10000 });
  check(/Queen \(upside down\) d1/.test(await page.inputValue("#out-img")),
    "the <img>'s alt text reads the figures (“Neutral: King (turned a quarter to the right) e4”, “Queen (upside down) d1”)");
  await page.screenshot({ path: join(shots, "editor-fairy.png"), fullPage: false });
  // By keyboard: a knight made neutral with -, a triangle chosen in the palette placed with Enter.
  await page.focus(square("a8"));
  await page.keyboard.press("n");
  await page.keyboard.press("-");
  await page.click('#palette button.marker[data-piece="T"]');
  await page.focus(square("h8"));
  await page.keyboard.press("Enter");
  await waitForOutput(page, (p) => fenHead(p.get("fen")).startsWith("-n6T/"), "the keyboard's neutral knight and triangle");
  check(await page.getAttribute(square("a8"), "aria-label") === "a8, neutral knight"
    && await page.getAttribute(square("h8"), "aria-label") === "h8, white triangle",
  "- makes the focused piece neutral; Enter places the palette's triangle on the focused square");
  await page.click('#tools button[data-tool="move"]');

  // --- a 10×10 board (grand chess) -----------------------------------------------------
  const GRAND = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1";
  await page.click("#ed-empty");
  await page.selectOption("#dialect", "standard");   // c is X-FEN's chancellor, not a circle
  await page.locator("#fen").fill(GRAND);
  await page.waitForFunction(() => document.querySelectorAll("#board [role=gridcell]").length === 100, null, { timeout: 10000 });
  check(await page.locator("#board [role=row]").count() === 10, "a grand chess FEN gives the editor 10 rows of 10 cells");
  check(await page.getAttribute(square("j10"), "aria-label") === "j10, black rook", "the corner cell reads “j10, black rook”");
  await showEditor(page);
  await drag(page, await centre(page, square("e3")), await centre(page, square("e5")));
  await waitForOutput(page, (p) => fenHead(p.get("fen")).startsWith("r8r/1nbqkcabn1/pppppppppp/10/10/4P5/10/PPPP1PPPPP/"),
    "the pawn moved on the 10×10 board");
  check(true, "a drag moves the pawn from e3 to e5 on the 10×10 board");
  const grandDiffer = await previewDiffers(page, "fen=" + encodeURIComponent((await produced(page)).get("fen")));
  check(grandDiffer === 0, `the preview is the service's 10×10 diagram (${(grandDiffer * 100).toFixed(2)} % differ)`);
  await page.screenshot({ path: join(shots, "editor-10x10.png"), fullPage: false });
  // Fairy FEN has no archbishop or chancellor: a neutral piece is refused, not misread.
  const grandFen = (await produced(page)).get("fen");
  await drag(page, await centre(page, paletteButton("-k")), await centre(page, square("e6")));
  await page.click(square("f2"), { modifiers: ["Shift"] });
  await page.waitForTimeout(300);
  check((await produced(page)).get("fen") === grandFen && await page.inputValue("#dialect") === "standard",
    "on a board with archbishops and chancellors a neutral king and a turned chancellor are refused");
  check(/Only the six chess pieces turn here: the white chancellor on f2/.test(await page.textContent("#editor-live")),
    "and the live region says why");
  // Jumps by keyboard on 10 ranks: e10; then a1, a pause, b3 (the 1 waits for a second digit).
  await page.focus(square("a1"));
  await page.keyboard.type("e10");
  check(await page.evaluate(() => document.activeElement.dataset.square) === "e10", "typing e10 jumps to e10");
  await page.keyboard.type("a1");
  await page.waitForTimeout(500);
  await page.keyboard.press("b");
  await page.waitForTimeout(300);
  await page.keyboard.press("3");
  check(await page.evaluate(() => document.activeElement.dataset.square) === "b3",
    "a1, a pause, then b3 jumps to b3 (a1's wait for a second digit does not end b3's jump)");

  // --- 2. by keyboard only -------------------------------------------------------------
  await emptyEditor(page);
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.getAttribute("role") === "gridcell");
  }
  check(reached, "Tab reaches the board");
  const focusVisible = await page.evaluate(() => {
    const cell = document.activeElement;
    const after = getComputedStyle(cell, "::after");
    return after.content !== "none" && parseFloat(after.borderTopWidth) >= 2;
  });
  check(focusVisible, "the focused square is outlined");
  for (const [piece, sq] of PIECES) {
    await page.keyboard.type(sq);                     // jump: a file, then a rank
    const white = piece === piece.toUpperCase();
    const letter = piece.toUpperCase();
    if (white && letter === "B") {
      await page.keyboard.press("b");
      await page.keyboard.press("Enter");             // b is also a file: Enter places the bishop at once
    } else if (white) {
      await page.keyboard.press(letter.toLowerCase());
    } else {
      await page.keyboard.press("Shift+" + letter);
    }
  }
  await waitForOutput(page, (p) => (p.get("fen") || "").startsWith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R"),
    "the position typed");
  check(/on h1/.test(await page.textContent("#editor-live")), "each placement is announced");
  // Side to move and castling, by Tab, arrows and Space.
  let onSide = false;
  for (let i = 0; i < 20 && !onSide; i++) {
    await page.keyboard.press("Tab");
    onSide = await page.evaluate(() => document.activeElement?.id === "ed-side");
  }
  check(onSide, "Tab reaches the side to move");
  await page.keyboard.press("ArrowDown");
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
  }
  await waitForOutput(page, (p) => fenHead(p.get("fen")) === AFTER, "side and castling by keyboard");
  check(true, "the keyboard alone builds the position after 1.e4 e5 2.Nf3");
  // Back to the board (Shift+Tab), a red arrow: Space on f3, then Shift+Space on e5.
  let back = false;
  for (let i = 0; i < 30 && !back; i++) {
    await page.keyboard.press("Shift+Tab");
    back = await page.evaluate(() => document.activeElement?.getAttribute("role") === "gridcell");
  }
  check(back, "Shift+Tab returns to the board");
  await page.keyboard.type("f3");
  await page.keyboard.press("Space");
  await page.keyboard.type("e5");
  await page.keyboard.press("Shift+Space");
  await waitForOutput(page, (p) => p.get("arrows") === "Rf3e5", "the keyboard's red arrow");
  check(true, "Space, then Shift+Space on another square, draws a red arrow");
  let onFlip = false;
  for (let i = 0; i < 10 && !onFlip; i++) {
    await page.keyboard.press("Tab");
    onFlip = await page.evaluate(() => document.activeElement?.id === "ed-flip");
  }
  check(onFlip, "Tab reaches Flip");
  await page.keyboard.press("Enter");
  await waitForOutput(page, (p) => p.get("orientation") === "black", "the keyboard's flip");
  check(true, "Enter on Flip turns the board");
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+z");
  await waitForOutput(page, (p) => !p.has("orientation") && !p.has("arrows") && fenHead(p.get("fen")) === AFTER, "keyboard undos");
  check(await previewDiffers(page, "fen=" + encodeURIComponent(AFTER + " - 1 2")) === 0,
    "undo twice by keyboard: the position, no arrow, White below, and the preview shows it");

  // --- a game: the move list steps through the plies -----------------------------------
  await page.locator("#pgn").fill("1. e4 e5 2. Nf3 Nc6 3. Bb5");
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 6, null, { timeout: 10000 });
  check(true, "a game shows its move list (the start and 5 moves)");
  await page.click('#moves button[data-ply="3"]');
  await waitForOutput(page, (p) => p.get("ply") === "3", "ply 3");
  check(await page.getAttribute(square("f3"), "aria-label") === "f3, white knight"
    && await page.getAttribute(square("c6"), "aria-label") === "c6, empty",
  "clicking 2. Nf3 shows the position after it, on the board and in the grid");
  await page.locator("#pgn").fill("");
  await page.dispatchEvent("#pgn", "input");

  // --- 3. a phone, by touch ------------------------------------------------------------
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const mobile = await phone.newPage();
  mobile.on("pageerror", (e) => problems.push("phone page error: " + e.message));
  await emptyEditor(mobile);
  const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `no sideways scrolling at 390 px (${overflow} px too wide)`);
  const cellSize = (await mobile.locator(square("a1")).boundingBox()).width;
  check(cellSize >= 36, `squares are big enough to touch (${cellSize.toFixed(0)} px)`);
  await showEditor(mobile);
  const tapAt = async (selector) => { const c = await centre(mobile, selector); await mobile.touchscreen.tap(c.x, c.y); };
  await tapAt(paletteButton("N"));
  await tapAt(square("g1"));
  await waitForOutput(mobile, (p) => (p.get("fen") || "").startsWith("8/8/8/8/8/8/8/6N1"), "the tapped knight");
  check(true, "tap a piece, tap a square: the knight stands on g1");
  await tapAt('#tools button[data-tool="move"]');
  const cdp = await phone.newCDPSession(mobile);
  const from = await centre(mobile, square("g1"));
  const to = await centre(mobile, square("f3"));
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: from.x, y: from.y }] });
  for (let i = 1; i <= 6; i++) {
    const t = i / 6;
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t }] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await waitForOutput(mobile, (p) => (p.get("fen") || "").startsWith("8/8/8/8/8/5N2/8/8"), "the knight dragged by touch");
  check(true, "a touch drag moves the knight from g1 to f3");
  await mobile.locator("#editor").scrollIntoViewIfNeeded();
  await mobile.evaluate(() => document.activeElement?.blur());
  await mobile.screenshot({ path: join(shots, "editor-390.png"), fullPage: false });
  await mobile.emulateMedia({ colorScheme: "dark" });
  await mobile.waitForTimeout(400);
  await mobile.screenshot({ path: join(shots, "editor-390-dark.png"), fullPage: false });
  await phone.close();

  check(problems.length === 0, "no script errors, failed requests or other origins" + (problems.length ? ": " + problems.join("; ") : ""));
  console.log(`${passed} passed, 0 failed`);
} catch (e) {
  console.error(e && e.message ? e.message : e);
  failed = true;
} finally {
  if (browser) await browser.close();
}
if (failed) {
  console.log(`${passed} passed, 1 failed`);
  console.log("editor browser test FAILED");
  process.exit(1);
}
console.log(`editor browser test passed; screenshots in ${shots}`);
