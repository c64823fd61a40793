"""The build seals the controller: MANIFEST.json with the SHA-256 of every file it ships.

Everything else about the package is in pyproject.toml. The controller checks its files
against this manifest at start-up (jackpot/integrity.py) and will not operate without it.
"""

import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def _integrity():  # type: ignore[no-untyped-def]
    # by path: the package's dependencies are not installed while it is being built
    path = Path(__file__).resolve().parent / "jackpot" / "integrity.py"
    spec = importlib.util.spec_from_file_location("_jackpot_integrity", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class SealedBuild(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the source tree: `./dev` seals that
        sealed = _integrity().seal(Path(self.build_lib) / "jackpot")
        print(f"sealed jackpot: {len(sealed.files)} files, sha256 {sealed.digest}")


setup(cmdclass={"build_py": SealedBuild})
