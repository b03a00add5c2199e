"""`yariboard serve` and the --serve flag: the game in a browser (live boards, the tournament,
the archive). app: the pages and their limits; server: uvicorn in a thread; feed: the live
snapshots; snapshot: what a page is told; publish: from a play session to the feed."""
