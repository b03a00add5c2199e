"use strict";
// The live board: follows /events?board=NAME and redraws on every snapshot.
(() => {
  const main = document.querySelector("main.live");
  const panel = main.querySelector(".panel");
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
    main.dataset.ply = snap.moves.length;
    main.dataset.gameId = snap.game_id || "";
  });
})();
