"use strict";
// Every board recorded here, small: one stream for all of them, each a link to its page.
(() => {
  const cells = new Map();
  for (const cell of document.querySelectorAll("a.mini")) cells.set(cell.dataset.board, cell);
  const source = new EventSource("/events");
  source.addEventListener("board", (event) => {
    const snap = JSON.parse(event.data);
    const cell = cells.get(snap.board);
    if (!cell) {
      location.reload();          // a board plugged in after the page was made
      return;
    }
    YariBoard.show(cell.querySelector(".panel"), snap);
    cell.dataset.ply = snap.moves.length;
  });
})();
