"""`python -m table_adapter.cli`: `war-floor`."""

import sys

from table_adapter.cli import main

sys.exit(main())
