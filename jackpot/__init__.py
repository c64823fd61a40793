"""Controller for linked Casino War progressive jackpots and their envy bonus.

Importing the package first makes every later `jackpot.*` import run its sealed source and
nothing else (docs/DECISIONS.md D270): a module is compiled from its `.py` as it is imported,
never loaded from a byte-code cache (a `.pyc` planted in `__pycache__` with the source's
stamp is never read), and an extension module or a sourceless `.pyc` in the package is
refused rather than loaded in place of the source. jackpot/integrity.py then checks the
sources against the sealed manifest. This file is the one module the interpreter loads the
usual way; its own cache is the one the check can only report after it ran.
"""

import importlib.abc
import importlib.machinery
import os
import sys
from types import CodeType

__version__ = "0.1.0"


# the package's own directory, links resolved: every module is loaded from within it
_PACKAGE = os.path.join(os.path.realpath(os.path.dirname(__file__)), "")


class _SourceLoader(importlib.machinery.SourceFileLoader):
    """Loads a module from its source alone: compiled as imported, no cache read or written."""

    def get_code(self, fullname: str) -> CodeType:
        source = self.get_data(self.path)
        return compile(source, self.path, "exec", dont_inherit=True)


class SealedSources(importlib.abc.MetaPathFinder):
    """Finds `jackpot.*` modules as the path finder does, and loads only their sources."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("jackpot."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)  # type: ignore[arg-type]
        if spec is None or spec.origin is None or spec.origin == "namespace":
            return spec
        if not os.path.realpath(spec.origin).startswith(_PACKAGE):
            raise ImportError(
                f"{fullname} would be loaded from {spec.origin}, outside the controller's "
                "package (a symbolic link): the controller runs only its sealed sources",
                name=fullname,
                path=spec.origin,
            )
        if not spec.origin.endswith(".py"):
            raise ImportError(
                f"{fullname} would be loaded from {spec.origin}: the controller runs only its "
                "sealed Python sources (an extension module or byte code in the package is "
                "refused; see jackpot/integrity.py)",
                name=fullname,
                path=spec.origin,
            )
        spec.loader = _SourceLoader(fullname, spec.origin)
        spec.cached = None
        return spec


if not any(isinstance(finder, SealedSources) for finder in sys.meta_path):
    sys.meta_path.insert(0, SealedSources())
