"use strict";
// An archived game: step through its positions with the buttons or the arrow keys.
(() => {
  const main = document.querySelector("main.game");
  const game = JSON.parse(document.getElementById("game-data").textContent);
  const panel = main.querySelector(".panel");
  const plies = game.moves.length;
  const points = game.analysis ? game.analysis.plies.map((p) => [p.ply, p.score]) : [];
  let ply = plies;

  function go(target) {
    ply = Math.max(0, Math.min(plies, target));
    YariBoard.show(panel, game, game.positions[ply]);
    YariBoard.moves(main, game.moves, ply);
    YariBoard.graph(main, points, plies, ply);
    YariBoard.text(main, ".ply", ply + " / " + plies);
    const here = game.analysis && game.analysis.plies.find((p) => p.ply === ply);
    YariBoard.text(main, ".evaluation .score", here ? scoreText(here) : "");
    YariBoard.text(main, ".evaluation .pv", here && here.best ? "best " + here.best : "");
    main.dataset.ply = ply;
  }

  function scoreText(p) {
    if (p.mate !== null) return (p.mate > 0 ? "Black" : "White") + " mates";
    return (p.score >= 0 ? "+" : "") + (p.score / 100).toFixed(2) + " for Black";
  }

  const steps = { first: () => 0, back: () => ply - 1, next: () => ply + 1, last: () => plies };
  main.querySelector(".steps").addEventListener("click", (event) => {
    const step = event.target.dataset.step;
    if (step) go(steps[step]());
  });
  main.querySelector("table.moves").addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-ply]");
    if (row) go(Number(row.dataset.ply));
  });
  // Renaming the players is the one change a page can make: it needs the start-up token.
  const form = main.querySelector("form.players");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = new URLSearchParams({ black: form.black.value, white: form.white.value });
    const reply = await fetch("/game/" + game.game_id + "/players", {
      method: "POST", body: body, headers: { "X-Yariboard-Token": form.token.value },
    });
    form.querySelector(".answer").textContent = (await reply.text()).trim();
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input")) return;      // typing a name steps nothing
    const keys = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[event.key]) {
      event.preventDefault();
      go(steps[keys[event.key]]());
    }
  });
  go(plies);
})();
