"use strict";
// One board with both hands, drawn by shogiground from a snapshot (ui/web/snapshot.py),
// and the pieces every page shares: players, clocks, the move list, the evaluation graph.
const YariBoard = (() => {
  // A piece's role is its SFEN letter in lower case, with 'p' before it when promoted;
  // anything else is no piece (an empty hand is written "-", which shogiground needs to
  // empty the hands: it ignores an empty text).
  function fromForsyth(text) {
    const letter = text[text.length - 1];
    if (!/^[A-Za-z]$/.test(letter)) return undefined;
    return (text[0] === "+" ? "p" : "") + letter.toLowerCase();
  }
  const toForsyth = (role) => (role.length === 2 ? "+" + role[1] : role);

  function emptyBoard(snap) {
    return Array(snap.ranks).fill(String(snap.files)).join("/");
  }

  function config(snap, position) {
    return {
      sfen: { board: position.board_sfen || emptyBoard(snap), hands: position.hands_sfen || "-" },
      lastDests: position.last || [],
      turnColor: position.turn === "white" ? "gote" : "sente",
      drawable: { enabled: false, visible: true, squares: leds(snap.leds || []) },
    };
  }

  function leds(pairs) {
    return pairs.map(([key, style]) => ({ key: key, className: "led led-" + style }));
  }

  // The board of `panel` (a .panel element) showing `position` of `snap`; made again when
  // the variant changes, since the board's size is fixed when it is made.
  function show(panel, snap, position) {
    const host = panel.querySelector(".sg-host");
    position = position || snap;
    if (!host.ground || host.dataset.variant !== snap.variant) {
      if (host.ground) host.ground.destroy();
      host.innerHTML = "";
      const top = document.createElement("div"), board = document.createElement("div"),
        bottom = document.createElement("div");
      top.className = "hand hand-white";
      bottom.className = "hand hand-black";
      host.append(top, board, bottom);
      host.className = "sg-host v-" + snap.variant;
      host.dataset.variant = snap.variant;
      host.ground = Shogiground(Object.assign({
        viewOnly: true, orientation: "sente", scaleDownPieces: false,
        coordinates: { enabled: true, files: "numeric", ranks: "engine" },
        animation: { enabled: false }, highlight: { lastDests: true },
        hands: { inlined: false, roles: snap.hand_roles },
        forsyth: { fromForsyth: fromForsyth, toForsyth: toForsyth },
      }, config(snap, position)), { board: board, hands: { top: top, bottom: bottom } });
    } else {
      host.ground.set(config(snap, position));
    }
    text(panel, ".black .name", "☗ " + (snap.black || "Black"));
    text(panel, ".white .name", "☖ " + (snap.white || "White"));
    text(panel, ".result", snap.result || "");
    clocks(panel, snap.clocks || []);
  }

  function clocks(panel, rows) {
    for (const side of ["black", "white"]) {
      const el = panel.querySelector("." + side + " .clock");
      const row = rows.find((r) => r.side === side);
      el.textContent = row ? row.text : "";
      el.classList.toggle("running", !!(row && row.running));
    }
  }

  function text(root, selector, value) {
    const el = root.querySelector(selector);
    if (el && el.textContent !== value) el.textContent = value;
  }

  // The move list; `current` (a ply) is marked.
  function moves(root, rows, current) {
    const body = root.querySelector("table.moves tbody");
    while (body.rows.length > rows.length) body.deleteRow(-1);
    rows.forEach((row, index) => {
      let tr = body.rows[index];
      if (!tr || tr.dataset.usi !== row.usi) {
        if (!tr) tr = body.insertRow(-1);
        tr.dataset.usi = row.usi;
        tr.dataset.ply = index + 1;
        tr.innerHTML = "";
        for (const value of [String(index + 1), row.hodges, row.japanese]) {
          tr.insertCell(-1).textContent = value;
        }
      }
      tr.classList.toggle("current", index + 1 === current);
      if (index + 1 === current) tr.scrollIntoView({ block: "nearest" });
    });
  }

  // Black's score (centipawns) after each ply as a line; `here` marks a ply.
  function graph(root, points, plies, here) {
    const svg = root.querySelector("svg.graph");
    const width = 300, height = 80, cap = 1500, last = Math.max(plies, 1);
    const x = (ply) => (ply / last) * width;
    const y = (score) => height / 2 - (Math.max(-cap, Math.min(cap, score)) / cap) * (height / 2 - 2);
    const line = points.map(([ply, score]) => x(ply).toFixed(1) + "," + y(score).toFixed(1)).join(" ");
    let markup = '<line class="zero" x1="0" y1="40" x2="300" y2="40"/>' +
      '<polyline class="line" points="' + line + '"/>';
    if (here !== undefined) {
      markup += '<line class="here" x1="' + x(here) + '" y1="0" x2="' + x(here) + '" y2="80"/>';
    }
    svg.innerHTML = markup;
    svg.dataset.points = points.length;
  }

  return { show: show, moves: moves, graph: graph, text: text };
})();
