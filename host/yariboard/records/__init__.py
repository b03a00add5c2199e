"""Games as records: the game model, the SQLite archive, stored analysis, and the file formats."""
