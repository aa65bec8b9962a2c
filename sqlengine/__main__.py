"""``python -m sqlengine``: the interactive SQL shell (see ``sqlengine.shell``)."""

import sys

from sqlengine.shell import main

if __name__ == "__main__":
    sys.exit(main())
