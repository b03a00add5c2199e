"""A game through the board: the recorder (archive = board), the play session, host controls, clocks, the demo."""
