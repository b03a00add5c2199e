"""Subcommands of the `yariboard` command line."""
