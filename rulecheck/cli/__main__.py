"""`python -m rulecheck.cli`: the `rulecheck` command."""

import sys

from rulecheck.cli import main

sys.exit(main())
