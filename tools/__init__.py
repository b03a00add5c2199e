"""Developer tools run from the repository root: `python -m tools.flash`, `python -m tools.typecheck_firmware`."""
