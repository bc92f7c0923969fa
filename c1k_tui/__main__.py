"""`python -m c1k_tui`: the `c1k` command."""

from c1k_tui.cli.main import main

main()
