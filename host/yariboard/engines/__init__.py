"""Every engine behind one vocabulary: the built-in search, USI and XBoard engines as processes, Fairy-Stockfish, the USI server, players and matches."""
