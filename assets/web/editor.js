// Staunton's board editor: place pieces, draw marks and step through a game on a board the
// service draws itself (the SVG of the current diagram, so it looks exactly like the result).
// It only reads and writes the composer's form controls (FEN, PGN, ply, orientation, arrows,
// highlight, squares) and fires their `input` events; app.js turns them into the diagram.
// No framework, no other origin.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const FILES = "abcdefghijklmnop";
  const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn", a: "archbishop", c: "chancellor" };
  // Fairy FEN (dialect=fairy): no archbishop or chancellor; c x s t are markers.
  const FAIRY_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn", c: "circle", x: "cross", s: "square", t: "triangle" };
  const TURN_WORDS = ["", " turned a quarter to the right", " upside down", " turned a quarter to the left"];
  // One square of a Fairy FEN rank: neutral (-), turned (*1..*3), text ('A, ''12) or a letter.
  const TOKEN = /(\d+)|(-?(?:\*[0-3])?(?:''[^/]{2}|'[^/]|[A-Za-z]))(~?)/uy;
  const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const EMPTY = "8/8/8/8/8/8/8/8 w - - 0 1";
  const DRAG_PX = 4;          // a press that moves less than this is a click
  const JUMP_MS = 700;        // after a file letter, how long a rank digit may follow

  // --- the position ------------------------------------------------------------------

  // A position as the editor holds it: `files` and `ranks` (1 to 16 each), `cells` (top
  // rank first, file a first; a piece letter with "~" when promoted, a Fairy FEN figure
  // such as "-k", "*2Q", "'A" or "''12", or ""), and the FEN's other fields as text.
  // `pocket` keeps crazyhouse hands as written ("[Qn]" or "/Qn").
  function parseFen(text) {
    let fen = String(text || "").trim();
    const tag = /^\[\s*FEN\s+"([^"]*)"\s*\]$/i.exec(fen);
    if (tag) fen = tag[1].trim();
    const bracket = /^\[([^\]]*)\]$/.exec(fen);
    if (bracket) fen = bracket[1].trim();
    fen = fen.replace(/_/g, " ").trim();
    if (/^start$/i.test(fen)) fen = START;
    if (/^empty$/i.test(fen)) fen = EMPTY;
    const fields = fen.split(/\s+/);
    let placement = fields[0] || "";
    let pocket = "";
    const hand = /^([^[]*)(\[[^\]]*\])$/.exec(placement);
    if (hand) { placement = hand[1]; pocket = hand[2]; }
    const ranks = placement.split("/");
    let rows = ranks.map(parseRank);
    // A ninth rank unlike the eight above it is a crazyhouse pocket.
    if (rows.length === 9 && rows.slice(0, 8).every((r) => r && r.length === rows[0].length)
        && (!rows[8] || rows[8].length !== rows[0].length)) {
      pocket = "/" + ranks[8];
      rows = rows.slice(0, 8);
    }
    if (rows.length < 1 || rows.length > 16 || rows.some((r) => !r)) return null;
    const files = rows[0].length;
    if (files < 1 || files > 16 || rows.some((r) => r.length !== files)) return null;
    return {
      files,
      ranks: rows.length,
      cells: rows.flat(),
      side: fields[1] === "b" ? "b" : "w",
      castling: fields[2] || "-",
      ep: fields[3] || "-",
      half: fields[4] || "0",
      full: fields[5] || "1",
      pocket,
    };
  }

  // The cells of one rank, or null when it is not one.
  function parseRank(rank) {
    const row = [];
    let m;
    TOKEN.lastIndex = 0;
    while (TOKEN.lastIndex < rank.length && (m = TOKEN.exec(rank))) {
      if (m[1]) for (let i = 0; i < Number(m[1]); i++) row.push("");
      else row.push(m[2] + m[3]);
      if (row.length > 16) return null;
    }
    if (TOKEN.lastIndex !== rank.length && rank.length) return null;
    return row;
  }

  function placementOf(pos) {
    const ranks = [];
    for (let r = 0; r < pos.ranks; r++) {
      let out = "";
      let run = 0;
      for (let f = 0; f < pos.files; f++) {
        const c = pos.cells[r * pos.files + f];
        if (!c) { run++; continue; }
        if (run) { out += run; run = 0; }
        out += c;
      }
      if (run) out += run;
      ranks.push(out);
    }
    return ranks.join("/");
  }

  function fenOf(pos, withPocket = true) {
    return [placementOf(pos) + (withPocket ? pos.pocket : ""), pos.side, pos.castling || "-",
      pos.ep || "-", pos.half, pos.full].join(" ");
  }

  // Square names and the cell index behind them.
  const squareName = (pos, i) => FILES[i % pos.files] + (pos.ranks - Math.floor(i / pos.files));
  function squareIndex(pos, name) {
    const m = /^([a-p])(\d{1,2})$/.exec(name);
    if (!m) return -1;
    const f = FILES.indexOf(m[1]);
    const r = Number(m[2]);
    return f < pos.files && r >= 1 && r <= pos.ranks ? (pos.ranks - r) * pos.files + f : -1;
  }

  const dialect = () => ($("dialect") && $("dialect").value) || "standard";

  // A cell in words: "white knight", "neutral king", "white queen upside down",
  // "text “12”", "white circle", "white piece lettered E".
  function pieceName(c, reading = dialect()) {
    if (!c) return "empty";
    const m = /^(-?)(?:\*([0-3]))?('{0,2})(.*?)(~?)$/u.exec(c);
    const turn = TURN_WORDS[Number(m[2] || 0)];
    if (m[3]) return `text “${m[4]}”${turn}`;
    const letter = m[4];
    const lower = letter.toLowerCase();
    const colour = m[1] ? "neutral" : letter === lower ? "black" : "white";
    const name = (reading === "fairy" ? FAIRY_NAMES : NAMES)[lower] || `piece lettered ${letter.toUpperCase()}`;
    return (m[5] ? "promoted " : "") + colour + " " + name + turn;
  }

  // The figure of `c` turned a further quarter clockwise (a full turn is upright again).
  function turned(c) {
    const m = /^(-?)(?:\*([0-3]))?(.*)$/u.exec(c);
    const next = (Number(m[2] || 0) + 1) % 4;
    return m[1] + (next ? "*" + next : "") + m[3];
  }

  // --- the marks ---------------------------------------------------------------------

  // The form's `arrows` ("Ge2e4,Rd4"), `highlight` ("Ge4") and `squares` ("d5") as lists.
  function parseList(text) {
    return String(text || "").split(",").map((s) => s.trim()).filter(Boolean);
  }
  function markParts(item) {
    const m = /^([GRYB]?)([a-p]\d{1,2})([a-p]\d{1,2})?$/i.exec(item);
    if (!m) return null;
    return { colour: (m[1] || "G").toUpperCase(), from: m[2].toLowerCase(), to: (m[3] || m[2]).toLowerCase() };
  }

  // --- state, history ----------------------------------------------------------------

  const controls = ["fen", "dialect", "pgn", "ply", "orientation", "arrows", "highlight", "squares"];
  let pos = parseFen(START);
  let game = null;            // /game.json of the PGN box, when it holds a game
  let gameKey = "";
  let markFrom = -1;          // the square a keyboard mark starts from (Space), or -1
  let tool = "move";          // "move", "marks", "crosses", or a piece letter to place
  let cursor = 0;             // the focused cell (index in pos.cells)
  let pendingJump = null;     // { letter, timer } after a file letter
  const undo = [];
  const redo = [];

  function snapshot() {
    const s = {};
    for (const id of controls) s[id] = $(id).value;
    return s;
  }
  function restore(s) {
    for (const id of controls) $(id).value = s[id];
    $("pgn").dispatchEvent(new Event("input", { bubbles: true }));
    $("ply").max = String(Math.max(Number($("ply").max), Number(s.ply) || 0));
    $("ply").value = s.ply;
    changed();
  }
  // Remember the state before an edit (a no-op edit leaves no trace).
  function remember(before) {
    const now = snapshot();
    if (controls.every((id) => before[id] === now[id])) return false;
    undo.push(before);
    if (undo.length > 200) undo.shift();
    redo.length = 0;
    syncUndoButtons();
    return true;
  }
  function edit(action, message) {
    const before = snapshot();
    action();
    if (remember(before)) {
      changed();
      if (message) announce(message);
    }
  }
  function stepHistory(from, to, word) {
    if (!from.length) { announce(`Nothing to ${word}.`); return; }
    to.push(snapshot());
    restore(from.pop());
    syncUndoButtons();
    announce(word === "undo" ? "Undone." : "Redone.");
  }
  function syncUndoButtons() {
    $("ed-undo").disabled = !undo.length;
    $("ed-redo").disabled = !redo.length;
  }

  // Tell the composer a control changed (it re-renders), and redraw the editor.
  function changed() {
    $("fen").dispatchEvent(new Event("input", { bubbles: true }));
    readControls();
  }

  function announce(text) {
    const live = $("editor-live");
    live.textContent = "";
    // A new node each time, so the same words twice are read twice.
    requestAnimationFrame(() => { live.textContent = text; });
  }

  // --- reading the form --------------------------------------------------------------

  function inGame() {
    return $("pgn").value.trim() !== "";
  }

  // The position the board shows: the FEN box, or the game's position at the slider.
  function readControls() {
    if (inGame()) {
      const ply = Number($("ply").value) || 0;
      const at = game && (ply === 0 ? game.start : (game.moves[ply - 1] || {}).fen);
      const parsed = at ? parseFen(at) : null;
      if (parsed) pos = parsed;
    } else {
      const parsed = parseFen($("fen").value);
      if (parsed) pos = parsed;
    }
    if (cursor >= pos.cells.length) cursor = 0;
    drawBoard();
    drawMoves();
  }

  function writeFen() {
    $("fen").value = fenOf(pos);
  }

  // Whether `piece`, placed now, is a Fairy FEN figure: neutral, turned or text in any
  // dialect; in the standard one also a marker (C is the circle except on 10 files, where
  // the palette's C is the chancellor).
  function needsFairy(piece) {
    if (!piece || dialect() === "fairy") return false;
    if (/^-|^\*|'/.test(piece)) return true;
    return dialect() === "standard" && (/^[XxSsTt]$/.test(piece) || (pos.files !== 10 && /^[Cc]$/.test(piece)));
  }

  // Before `piece` goes on cell `i`: when it needs Fairy FEN, whether the rest of the board
  // reads the same there (orthodox pieces only: Fairy FEN has no archbishop, chancellor,
  // letter pieces, promotion marks or pockets). Says why not when it does not.
  function fairyReady(i, piece) {
    if (!needsFairy(piece)) return true;
    const other = pos.cells.findIndex((c, j) => j !== i && c && !/^[KQRBNPkqrbnp]$/.test(c));
    if (other < 0 && !pos.pocket) return true;
    const what = other < 0 ? "the pockets" : `the ${pieceName(pos.cells[other])} on ${squareName(pos, other)}`;
    announce(`Fairy FEN cannot hold ${what}: remove it first, or choose the Fairy FEN dialect.`);
    return false;
  }

  // Editing a game's position leaves the game: the position becomes the FEN.
  function leaveGame() {
    if (!inGame()) return;
    $("pgn").value = "";
    $("pgn").dispatchEvent(new Event("input", { bubbles: true }));
    announce("Left the game: the position is now a FEN you can edit.");
  }

  // The side at the bottom: the orientation control, `turn` read from the position.
  function blackBelow() {
    const o = $("orientation").value;
    return o === "black" || (o === "turn" && pos.side === "b");
  }

  // --- the board ---------------------------------------------------------------------

  function boardUrl() {
    const q = new URLSearchParams();
    if (inGame() && game) {
      q.set("pgn", $("pgn").value.trim());
      q.set("ply", $("ply").value);
    } else {
      q.set("fen", fenOf(pos, false));
    }
    if (dialect() !== "standard") q.set("dialect", dialect());
    // The editor writes its own coordinates beside the board (drawCoordinates): inside
    // the squares, rank 1's letters would sit under the pieces' bases.
    q.set("coordinates", "none");
    // The whole board (no region), with the marks the grid does not show.
    if ($("board-shape") && $("board-shape").value.trim()) q.set("board", $("board-shape").value.trim());
    for (const name of ["orientation", "pieces", "theme", "arrows", "highlight", "squares", "marks", "dots", "legalMoves", "lastMove", "check", "annotations"]) {
      const v = ($(name) && $(name).value || "").trim();
      if (v) q.set(name, v);
    }
    if ($("custom-colours").checked) {
      q.set("light", $("light").value);
      q.set("dark", $("dark").value);
    }
    return "/diagram.svg?" + q.toString();
  }

  let shownUrl = "";
  let boardGeneration = 0;
  function drawBoard() {
    const grid = $("board");
    const img = $("board-img");
    const url = boardUrl();
    if (url !== shownUrl) {
      // Load first, then swap, so the board never flashes empty between two positions.
      // When app.js draws in the page, the same SVG comes as a blob: URL (no request).
      const mine = ++boardGeneration;
      const next = new Image();
      const drawn = window.stauntonComposer ? window.stauntonComposer.drawSvg(url) : null;
      const src = drawn || url;
      next.onload = () => {
        if (mine !== boardGeneration) { if (drawn) URL.revokeObjectURL(drawn); return; }
        const old = img.src;
        img.src = src;
        shownUrl = url;
        if (old.startsWith("blob:")) URL.revokeObjectURL(old);
        grid.classList.remove("stale");
      };
      next.onerror = () => { if (mine === boardGeneration) grid.classList.add("stale"); };
      next.src = src;
    }
    grid.style.setProperty("--files", String(pos.files));
    grid.style.setProperty("--ranks", String(pos.ranks));
    grid.parentElement.style.setProperty("--files", String(pos.files));
    grid.parentElement.style.setProperty("--ranks", String(pos.ranks));
    const flip = blackBelow();
    const need = pos.cells.length;
    const shape = `${pos.files}x${pos.ranks}`;
    if (grid.querySelectorAll("[role=gridcell]").length !== need || grid.dataset.flip !== String(flip)
        || grid.dataset.shape !== shape) {
      grid.textContent = "";
      grid.dataset.flip = String(flip);
      grid.dataset.shape = shape;
      for (let row = 0; row < pos.ranks; row++) {
        const r = document.createElement("div");
        r.setAttribute("role", "row");
        for (let col = 0; col < pos.files; col++) {
          const i = flip ? (pos.ranks - 1 - row) * pos.files + (pos.files - 1 - col) : row * pos.files + col;
          const cell = document.createElement("div");
          cell.setAttribute("role", "gridcell");
          cell.dataset.index = String(i);
          cell.dataset.square = squareName(pos, i);
          cell.tabIndex = -1;
          r.appendChild(cell);
        }
        grid.appendChild(r);
      }
    }
    drawCoordinates(grid.parentElement, flip);
    for (const cell of grid.querySelectorAll("[role=gridcell]")) {
      const i = Number(cell.dataset.index);
      cell.setAttribute("aria-label", `${squareName(pos, i)}, ${pieceName(pos.cells[i])}`);
      cell.tabIndex = i === cursor ? 0 : -1;
      cell.classList.toggle("cursor", i === cursor);
    }
    $("ed-side").value = pos.side;
    for (const box of document.querySelectorAll("#ed-castling input")) {
      box.checked = pos.castling.includes(box.value);
    }
    const editable = !inGame();
    $("ed-side").disabled = !editable;
    for (const box of document.querySelectorAll("#ed-castling input")) box.disabled = !editable;
    // Archbishop and chancellor are X-FEN's, on 10 files; the markers are Fairy FEN's, where
    // C is a circle (on 10 files only once the dialect is Fairy FEN).
    const fairy = dialect() === "fairy";
    for (const b of document.querySelectorAll("#palette button")) {
      if (b.classList.contains("marker")) b.hidden = pos.files === 10 && !fairy;
      else if ("AaCc".includes(b.dataset.piece)) b.hidden = pos.files !== 10 || fairy;
    }
  }

  // The files' letters under the board and the ranks' numbers left of it, in the order
  // the board shows them: outside the squares, so no piece hides them.
  function drawCoordinates(wrap, flip) {
    const strip = (name, labels) => {
      let el = wrap.querySelector(`.coords.${name}`);
      if (!el) {
        el = document.createElement("div");
        el.className = `coords ${name}`;
        el.setAttribute("aria-hidden", "true");
        wrap.appendChild(el);
      }
      if (el.dataset.labels === labels.join(" ")) return;
      el.dataset.labels = labels.join(" ");
      el.textContent = "";
      for (const text of labels) {
        const span = document.createElement("span");
        span.textContent = text;
        el.appendChild(span);
      }
    };
    const files = [...FILES.slice(0, pos.files)];
    const ranks = Array.from({ length: pos.ranks }, (_, k) => String(pos.ranks - k));
    strip("files", flip ? files.reverse() : files);
    strip("ranks", flip ? ranks.reverse() : ranks);
  }

  function cellAt(x, y) {
    const rect = $("board").getBoundingClientRect();
    if (x < rect.left || y < rect.top || x >= rect.right || y >= rect.bottom) return -1;
    const col = Math.floor(((x - rect.left) / rect.width) * pos.files);
    const row = Math.floor(((y - rect.top) / rect.height) * pos.ranks);
    return blackBelow() ? (pos.ranks - 1 - row) * pos.files + (pos.files - 1 - col) : row * pos.files + col;
  }

  function focusCell(i) {
    cursor = i;
    drawBoard();
    const cell = $("board").querySelector(`[data-index="${i}"]`);
    if (cell) cell.focus();
  }

  // --- edits -------------------------------------------------------------------------

  function putPiece(i, piece) {
    if (!fairyReady(i, piece)) return;
    const square = squareName(pos, i);
    const fairy = needsFairy(piece);
    edit(() => {
      leaveGame();
      pos.cells[i] = piece;
      // The figure is Fairy FEN's: the FEN is read so from now on (undo puts it back).
      if (fairy) $("dialect").value = "fairy";
      writeFen();
    }, piece ? `${pieceName(piece, fairy ? "fairy" : dialect())} on ${square}${fairy ? "; FEN dialect: Fairy FEN" : ""}` : `${square} cleared`);
  }

  // Turn the figure on cell `i` a quarter clockwise (Shift+click, T, or the Turn button).
  function turnPiece(i) {
    const piece = pos.cells[i];
    if (!piece) { announce(`${squareName(pos, i)} is empty: nothing to turn.`); return; }
    if (dialect() !== "fairy" && !/^(-?)(?:\*[0-3])?[KQRBNPkqrbnp]~?$/.test(piece)) {
      announce(`Only the six chess pieces turn here: the ${pieceName(piece)} on ${squareName(pos, i)} does not.`);
      return;
    }
    putPiece(i, turned(piece.replace(/~$/, "")));
  }

  // Make the piece on cell `i` neutral, or a neutral one White's again (the - key).
  function toggleNeutral(i) {
    const m = /^(-?)((?:\*[0-3])?)([KQRBNPkqrbnp])~?$/.exec(pos.cells[i]);
    if (!m) { announce(`${squareName(pos, i)}: only a piece can be neutral.`); return; }
    putPiece(i, m[1] ? m[2] + m[3].toUpperCase() : "-" + m[2] + m[3].toLowerCase());
  }

  // Write one or two characters of text on cell `i` (the Text field).
  function putText(i) {
    const chars = [...$("ed-text").value.trim()];
    if (chars.length < 1 || chars.length > 2 || chars.some((c) => "'/_ ".includes(c))) {
      announce("Text: type one or two characters (not ', /, _ or a space), then press Write.");
      $("ed-text").setAttribute("aria-invalid", "true");
      return;
    }
    $("ed-text").removeAttribute("aria-invalid");
    putPiece(i, (chars.length === 2 ? "''" : "'") + chars.join(""));
  }

  function movePiece(from, to) {
    if (from === to) return;
    const piece = pos.cells[from];
    if (!piece) return;
    edit(() => {
      leaveGame();
      pos.cells[to] = piece;
      pos.cells[from] = "";
      writeFen();
    }, `${pieceName(piece)} from ${squareName(pos, from)} to ${squareName(pos, to)}`);
  }

  // The colour of a mark from the modifier keys, as lichess draws them.
  function colourOf(e) {
    if (e.shiftKey && e.altKey) return "Y";
    if (e.shiftKey) return "R";
    if (e.altKey) return "B";
    return "G";
  }
  const COLOUR_WORDS = { G: "green", R: "red", Y: "yellow", B: "blue" };

  // An arrow between two squares, or a highlight on one; the same gesture again removes it,
  // another colour replaces it.
  function toggleMark(from, to, colour) {
    const a = squareName(pos, from);
    const b = squareName(pos, to);
    const id = from === to ? "highlight" : "arrows";
    const items = parseList($(id).value);
    const key = from === to ? a : a + b;
    const index = items.findIndex((item) => {
      const p = markParts(item);
      return p && (from === to ? p.from === a : p.from === a && p.to === b);
    });
    const what = from === to ? `highlight on ${a}` : `arrow from ${a} to ${b}`;
    let message;
    if (index >= 0 && markParts(items[index]).colour === colour) {
      items.splice(index, 1);
      message = `${what} removed`;
    } else if (index >= 0) {
      items[index] = colour + key;
      message = `${what} now ${COLOUR_WORDS[colour]}`;
    } else {
      items.push(colour + key);
      message = `${COLOUR_WORDS[colour]} ${what}`;
    }
    edit(() => { $(id).value = items.join(","); }, message);
  }

  function toggleCross(i) {
    const square = squareName(pos, i);
    const items = parseList($("squares").value).map((s) => s.toLowerCase());
    const at = items.indexOf(square);
    if (at >= 0) items.splice(at, 1); else items.push(square);
    edit(() => { $("squares").value = items.join(","); },
      at >= 0 ? `cross on ${square} removed` : `cross on ${square}`);
  }

  function setTool(next) {
    tool = next;
    markFrom = -1;
    for (const b of document.querySelectorAll("#tools button, #palette button")) {
      const on = b.dataset.tool === next || b.dataset.piece === next;
      b.setAttribute("aria-pressed", String(on));
    }
    $("board").dataset.tool = ["move", "marks", "crosses"].includes(next) ? next : "place";
    const words = { move: "Move pieces", marks: "Arrows and highlights", crosses: "Crosses" };
    announce(words[next] ? `${words[next]} tool.` : `Placing the ${pieceName(next)}.`);
  }

  // --- pointer gestures --------------------------------------------------------------

  let gesture = null;   // { kind: "drag" | "mark" | "place", from, piece, x, y, moved, ghost }

  function ghostFor(piece, x, y) {
    const img = document.createElement("img");
    img.className = "ghost";
    img.alt = "";
    const url = pieceUrl(piece);
    if (url) img.src = url;
    else img.classList.add("ghost-figure");
    const size = $("board").getBoundingClientRect().width / pos.files;
    img.style.width = img.style.height = size + "px";
    document.body.appendChild(img);
    moveGhost(img, x, y);
    return img;
  }
  function moveGhost(img, x, y) {
    const size = parseFloat(img.style.width);
    img.style.transform = `translate(${x - size / 2}px, ${y - size / 2}px)`;
  }
  function endGesture() {
    if (gesture && gesture.ghost) gesture.ghost.remove();
    for (const c of document.querySelectorAll("#board .lifted, #board .mark-from")) c.classList.remove("lifted", "mark-from");
    gesture = null;
  }

  function onBoardDown(e) {
    if (e.button !== 0 && e.button !== 2) return;
    const i = cellAt(e.clientX, e.clientY);
    if (i < 0) return;
    e.preventDefault();
    $("board").setPointerCapture(e.pointerId);
    cursor = i;
    const marks = e.button === 2 || tool === "marks";
    if (marks) {
      gesture = { kind: "mark", from: i, x: e.clientX, y: e.clientY };
      const cell = $("board").querySelector(`[data-index="${i}"]`);
      if (cell) cell.classList.add("mark-from");
    } else if (tool === "crosses") {
      gesture = { kind: "cross", from: i, x: e.clientX, y: e.clientY };
    } else if (tool !== "move") {
      gesture = { kind: "place", from: i, piece: tool, x: e.clientX, y: e.clientY };
    } else if (pos.cells[i] && e.shiftKey && e.button === 0) {
      turnPiece(i);
    } else if (pos.cells[i]) {
      gesture = { kind: "drag", from: i, piece: pos.cells[i], x: e.clientX, y: e.clientY, moved: false };
      const cell = $("board").querySelector(`[data-index="${i}"]`);
      if (cell) cell.classList.add("lifted");
    }
  }

  function onMove(e) {
    if (!gesture) return;
    if (!gesture.moved && Math.hypot(e.clientX - gesture.x, e.clientY - gesture.y) >= DRAG_PX) {
      gesture.moved = true;
      if ((gesture.kind === "drag" || gesture.kind === "palette") && !gesture.ghost) {
        gesture.ghost = ghostFor(gesture.piece, e.clientX, e.clientY);
      }
    }
    if (gesture.ghost) moveGhost(gesture.ghost, e.clientX, e.clientY);
  }

  function onUp(e) {
    if (!gesture) return;
    const g = gesture;
    const to = cellAt(e.clientX, e.clientY);
    endGesture();
    if (g.kind === "mark") {
      if (to >= 0) toggleMark(g.from, to, colourOf(e));
    } else if (g.kind === "cross") {
      if (to === g.from) toggleCross(to);
    } else if (g.kind === "place") {
      // Placing the piece already there takes it away, as in lichess's editor.
      if (to >= 0) putPiece(to, pos.cells[to] === g.piece ? "" : g.piece);
    } else if (g.kind === "drag") {
      if (to < 0) putPiece(g.from, "");          // dropped off the board
      else movePiece(g.from, to);
    } else if (g.kind === "palette") {
      if (!g.moved) setTool(g.piece);
      else if (to >= 0) putPiece(to, g.piece);
    }
    drawBoard();
  }

  function onPaletteDown(e) {
    const button = e.target.closest("button[data-piece]");
    if (!button || e.button !== 0) return;
    e.preventDefault();
    button.setPointerCapture(e.pointerId);
    gesture = { kind: "palette", piece: button.dataset.piece, x: e.clientX, y: e.clientY, moved: false };
  }

  // --- the keyboard ------------------------------------------------------------------

  function moveCursor(dCol, dRow) {
    const flip = blackBelow() ? -1 : 1;
    const file = cursor % pos.files + dCol * flip;
    const rank = Math.floor(cursor / pos.files) + dRow * flip;
    if (file < 0 || file >= pos.files || rank < 0 || rank >= pos.ranks) return;
    focusCell(rank * pos.files + file);
    announce(`${squareName(pos, cursor)}, ${pieceName(pos.cells[cursor])}`);
  }


  // Jump to the square a file letter and rank digits name.
  function jumpTo(jump) {
    if (!jump || jump !== pendingJump) return;
    clearTimeout(jump.timer);
    pendingJump = null;
    const i = squareIndex(pos, jump.letter + jump.digits);
    if (i >= 0) {
      focusCell(i);
      announce(`${squareName(pos, i)}, ${pieceName(pos.cells[i])}`);
    }
  }

  function commitPendingJump() {
    if (!pendingJump) return;
    if (pendingJump.digits) { jumpTo(pendingJump); return; }
    const { letter } = pendingJump;
    clearTimeout(pendingJump.timer);
    pendingJump = null;
    placeByLetter(letter);
  }
  function placeByLetter(letter) {
    const lower = letter.toLowerCase();
    const extra = lower === "a" || lower === "c";
    if (!NAMES[lower] || (extra && (pos.files !== 10 || dialect() === "fairy"))) return;
    // Plain letters are White's pieces, with Shift Black's.
    putPiece(cursor, letter === lower ? lower.toUpperCase() : lower);
  }

  function onGridKey(e) {
    if (e.ctrlKey || e.metaKey) return;   // undo and redo are the page's
    const key = e.key;
    if (pendingJump && /^[0-9]$/.test(key)) {
      e.preventDefault();
      clearTimeout(pendingJump.timer);
      const digits = (pendingJump.digits || "") + key;
      // On a board of 10 ranks or more, "1" may begin "10" to "16": wait for a second digit.
      if (digits === "1" && pos.ranks >= 10) {
        pendingJump.digits = digits;
        const jump = pendingJump;
        jump.timer = setTimeout(() => jumpTo(jump), JUMP_MS);
        return;
      }
      pendingJump.digits = digits;
      jumpTo(pendingJump);
      return;
    }
    if (pendingJump && (key === "Enter")) { e.preventDefault(); commitPendingJump(); return; }
    commitPendingJump();
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (arrows[key]) { e.preventDefault(); moveCursor(...arrows[key]); return; }
    if (key === "Home" || key === "End") {
      e.preventDefault();
      const rank = Math.floor(cursor / pos.files);
      const edge = (key === "Home") !== blackBelow() ? 0 : pos.files - 1;
      focusCell(rank * pos.files + edge);
      return;
    }
    if (key === "Delete" || key === "Backspace") { e.preventDefault(); putPiece(cursor, ""); return; }
    if (key === "Enter" && markFrom < 0 && !["move", "marks", "crosses"].includes(tool)) {
      // With a piece or marker chosen in the palette, Enter places it (or, when it is
      // already there, takes it away), as a click does; Space still draws marks.
      e.preventDefault();
      putPiece(cursor, pos.cells[cursor] === tool ? "" : tool);
      return;
    }
    if (key === "-") { e.preventDefault(); toggleNeutral(cursor); return; }
    if (key === " " || key === "Enter") {
      e.preventDefault();
      if (markFrom < 0) {
        markFrom = cursor;
        announce(`Mark from ${squareName(pos, cursor)}: move to another square and press Space for an arrow, or Space again for a highlight; Shift red, Alt blue, both yellow.`);
      } else {
        const from = markFrom;
        markFrom = -1;
        toggleMark(from, cursor, colourOf(e));
      }
      return;
    }
    if (key === "Escape" && markFrom >= 0) { markFrom = -1; announce("Mark cancelled."); return; }
    if (key === "x" || key === "X") { e.preventDefault(); toggleCross(cursor); return; }
    if ((key === "t" || key === "T") && !FILES.slice(0, pos.files).includes("t")) {
      e.preventDefault();
      turnPiece(cursor);
      return;
    }
    if (/^[a-zA-Z]$/.test(key) && !e.altKey) {
      const lower = key.toLowerCase();
      const isFile = key === lower && FILES.slice(0, pos.files).includes(lower);
      if (isFile) {
        // A file letter may start a jump ("b3"); when it is also a piece letter (b, and a
        // and c on 10×8 boards) the piece is placed if no digit follows in time.
        e.preventDefault();
        pendingJump = { letter: key, timer: setTimeout(commitPendingJump, JUMP_MS) };
        return;
      }
      if (NAMES[lower]) { e.preventDefault(); placeByLetter(key); }
    }
  }

  function onPageKey(e) {
    const typing = e.target.closest("textarea, input[type=text], input[type=number], select");
    if (typing || !(e.ctrlKey || e.metaKey)) return;
    const k = e.key.toLowerCase();
    if (k === "z" && !e.shiftKey) { e.preventDefault(); stepHistory(undo, redo, "undo"); }
    else if (k === "y" || (k === "z" && e.shiftKey)) { e.preventDefault(); stepHistory(redo, undo, "redo"); }
  }

  // --- buttons -----------------------------------------------------------------------

  function setPosition(fen, message) {
    edit(() => {
      leaveGame();
      pos = parseFen(fen);
      writeFen();
    }, message);
  }

  function flip() {
    const now = blackBelow();
    edit(() => { $("orientation").value = now ? "white" : "black"; },
      now ? "White at the bottom." : "Black at the bottom.");
  }

  function clearMarks() {
    edit(() => {
      $("arrows").value = "";
      $("highlight").value = "";
      $("squares").value = "";
    }, "Marks cleared.");
  }

  async function paste() {
    let text = "";
    try {
      text = await navigator.clipboard.readText();
    } catch (e) {
      $("fen").focus();
      announce("The clipboard cannot be read here: paste into the FEN or PGN box with Ctrl+V.");
      return;
    }
    text = text.trim();
    if (!text) { announce("The clipboard is empty."); return; }
    const isPgn = /(^|\n)\s*\[\w+\s+"/.test(text) && !/^\[FEN\s/i.test(text) || /\b1\s*\.\s*[a-hNBRQKO]/.test(text);
    edit(() => {
      if (isPgn) {
        $("pgn").value = text;
        $("ply").max = "0";
        $("ply").value = "0";
      } else {
        $("pgn").value = "";
        $("fen").value = text;
      }
      $("pgn").dispatchEvent(new Event("input", { bubbles: true }));
    }, isPgn ? "Game pasted." : "Position pasted.");
  }

  function pieceUrl(piece) {
    const letter = piece.replace(/^-?(\*[0-3])?/, "")[0] || "";
    if (!/^[KQRBNPACkqrbnpac]$/.test(letter) || (dialect() === "fairy" && /[ACac]/.test(letter))) {
      return "";   // text, markers and letter pieces have no artwork of their own
    }
    const colour = piece.startsWith("-") || letter === letter.toUpperCase() ? "w" : "b";
    const set = $("pieces").value || "staunton";
    return `/piece.svg?pieces=${encodeURIComponent(set)}&piece=${colour}${letter.toUpperCase()}`;
  }

  function drawPalette() {
    for (const b of document.querySelectorAll("#palette button[data-piece]")) {
      const img = b.querySelector("img");
      const url = pieceUrl(b.dataset.piece);
      if (!img || !url) continue;
      if (img.getAttribute("src") !== url) img.src = url;
    }
  }

  // --- games: the move list ----------------------------------------------------------

  let gameTimer = null;
  async function loadGame() {
    const pgn = $("pgn").value.trim();
    if (!pgn) { game = null; gameKey = ""; readControls(); return; }
    if (pgn === gameKey) return;
    gameKey = pgn;
    let answer;
    try {
      const r = await fetch("/game.json?pgn=" + encodeURIComponent(pgn));
      answer = r.ok ? await r.json() : null;
    } catch (e) {
      answer = null;
    }
    if (pgn !== $("pgn").value.trim()) return;   // an older text
    game = answer;
    readControls();
  }

  function drawMoves() {
    const list = $("moves");
    const field = $("moves-field");
    if (!inGame() || !game) { field.hidden = true; list.textContent = ""; return; }
    field.hidden = false;
    const ply = Number($("ply").value) || 0;
    if (list.dataset.key !== gameKey) {
      list.textContent = "";
      list.dataset.key = gameKey;
      const start = document.createElement("button");
      start.type = "button";
      start.dataset.ply = "0";
      start.textContent = "Start";
      list.appendChild(start);
      for (const m of game.moves) {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.ply = String(m.ply);
        b.textContent = m.side === "w" ? `${m.number}. ${m.san}` : (m.ply === 1 ? `${m.number}… ${m.san}` : m.san);
        b.setAttribute("aria-label", `${m.number}${m.side === "w" ? "." : "…"} ${m.san}`);
        list.appendChild(b);
      }
    }
    for (const b of list.querySelectorAll("button")) {
      const current = Number(b.dataset.ply) === ply;
      if (current) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    }
  }

  function goToPly(ply) {
    const slider = $("ply");
    slider.max = String(Math.max(Number(slider.max), ply));
    slider.value = String(ply);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    readControls();
  }

  // --- start -------------------------------------------------------------------------

  function init() {
    if (!$("board")) return;
    const board = $("board");
    board.addEventListener("pointerdown", onBoardDown);
    board.addEventListener("pointermove", onMove);
    board.addEventListener("pointerup", onUp);
    board.addEventListener("pointercancel", endGesture);
    board.addEventListener("contextmenu", (e) => e.preventDefault());
    board.addEventListener("keydown", onGridKey);
    board.addEventListener("focusin", (e) => {
      const cell = e.target.closest("[role=gridcell]");
      if (cell) { cursor = Number(cell.dataset.index); drawBoard(); }
    });
    const palette = $("palette");
    palette.addEventListener("pointerdown", onPaletteDown);
    palette.addEventListener("pointermove", onMove);
    palette.addEventListener("pointerup", onUp);
    palette.addEventListener("pointercancel", endGesture);
    // Keyboard and assistive technology press buttons with click (detail 0).
    palette.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-piece]");
      if (b && e.detail === 0) setTool(b.dataset.piece);
    });
    for (const b of document.querySelectorAll("#tools button")) {
      b.addEventListener("click", () => setTool(b.dataset.tool));
    }
    $("ed-start").addEventListener("click", () => setPosition(START, "Start position."));
    $("ed-empty").addEventListener("click", () => setPosition(EMPTY, "Empty board."));
    $("ed-flip").addEventListener("click", flip);
    $("ed-turn").addEventListener("click", () => turnPiece(cursor));
    $("ed-write").addEventListener("click", () => putText(cursor));
    $("ed-text").addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); putText(cursor); }
    });
    $("ed-clear").addEventListener("click", clearMarks);
    $("ed-paste").addEventListener("click", paste);
    $("ed-undo").addEventListener("click", () => stepHistory(undo, redo, "undo"));
    $("ed-redo").addEventListener("click", () => stepHistory(redo, undo, "redo"));
    $("ed-side").addEventListener("change", () => {
      const side = $("ed-side").value;
      edit(() => { pos.side = side; writeFen(); }, side === "w" ? "White to move." : "Black to move.");
    });
    for (const box of document.querySelectorAll("#ed-castling input")) {
      box.addEventListener("change", () => {
        const letters = [...document.querySelectorAll("#ed-castling input")]
          .filter((b) => b.checked).map((b) => b.value).join("");
        edit(() => { pos.castling = letters || "-"; writeFen(); },
          `${box.nextElementSibling ? box.nextElementSibling.textContent : box.value} ${box.checked ? "on" : "off"}.`);
      });
    }
    $("moves").addEventListener("click", (e) => {
      const b = e.target.closest("button[data-ply]");
      if (b) goToPly(Number(b.dataset.ply));
    });
    document.addEventListener("keydown", onPageKey);
    window.addEventListener("pointerup", (e) => { if (gesture) onUp(e); });

    // The form changed (typing, choices, app.js restoring the URL): follow it.
    const form = $("composer");
    const follow = (e) => {
      // The editor's own controls (side, castling) change the position themselves.
      if (e && e.target && e.target.closest && e.target.closest("#editor")) return;
      clearTimeout(gameTimer);
      if (inGame()) gameTimer = setTimeout(loadGame, 250);
      else { game = null; gameKey = ""; }
      drawPalette();
      readControls();
    };
    form.addEventListener("input", follow);
    form.addEventListener("change", follow);
    // app.js fills the choices from /openapi.json, restores the URL and resets options
    // without input events; it says so before each render.
    document.addEventListener("composer:update", follow);
    setTool("move");
    $("editor-live").textContent = "";
    syncUndoButtons();
    follow();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
