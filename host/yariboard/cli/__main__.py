"""`python -m yariboard.cli.main`: the same as the `yariboard` command."""
import sys

from yariboard.cli.main.main import main

sys.exit(main())
