"""The `yariboard` command line: argument parsing and one thin module per command."""
