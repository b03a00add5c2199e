"use strict";
// The live board: follows /events?board=NAME and redraws on every snapshot.
(() => {
  const main = document.querySelector("main.live");
  const panel = main.querySelector(".panel");
  // What the lit LEDs mean, each with its colour (the overlay's, from /pieces.css).
  function legend(rows) {
    const box = main.querySelector(".leds");
    box.innerHTML = "";
    for (const [style, meaning] of rows) {
      const item = document.createElement("span"), swatch = document.createElement("i");
      swatch.className = "led-swatch led-" + style;
      item.append(swatch, meaning);
      box.append(item);
    }
  }

  const source = new EventSource("/events?board=" + encodeURIComponent(main.dataset.board));
  source.addEventListener("board", (event) => {
    const snap = JSON.parse(event.data);
    YariBoard.show(panel, snap);
    YariBoard.moves(main, snap.moves, snap.moves.length);
    YariBoard.graph(main, snap.evals || [], snap.moves.length);
    YariBoard.text(main, ".status", snap.status || "");
    YariBoard.text(main, ".message", [snap.message, snap.order, snap.hint && "hint " + snap.hint]
      .filter(Boolean).join(" · "));
    const evaluation = snap.evaluation;
    YariBoard.text(main, ".evaluation .score", evaluation ? evaluation.text : "");
    YariBoard.text(main, ".evaluation .pv", evaluation ? evaluation.pv.join(" ") : "");
    legend(snap.legend || []);
    main.dataset.ply = snap.moves.length;
    main.dataset.gameId = snap.game_id || "";
  });
})();
