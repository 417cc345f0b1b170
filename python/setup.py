"""Bundles the engine into the wheel when the repository's release build holds it (../.build/release)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithEngine(build_py):
    """Copies libNavGraphC.so and the phrasebooks beside the package, if built; else the package looks them up at run time."""

    def run(self):
        super().run()
        release = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release")
        library = os.path.join(release, "libNavGraphC.so")
        if not os.path.isfile(library):
            return
        target = os.path.join(self.build_lib, "navgraph", "_lib")
        os.makedirs(target, exist_ok=True)
        shutil.copy2(library, target)
        phrasebook = os.path.join(release, "navgraph_NavGraphCore.resources", "phrasebook")
        if os.path.isdir(phrasebook):
            shutil.copytree(phrasebook, os.path.join(target, "navgraph_NavGraphCore.resources", "phrasebook"), dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithEngine})
