"""Finds and loads libNavGraphC (the engine's C ABI) and the Swift runtime it needs, through ctypes."""
import ctypes
import glob
import os
import shutil
import threading

LIBRARY_NAME = "libNavGraphC.so"
_lock = threading.Lock()
_library = None


def _candidates():
    """Where the engine library may be, in order: NAVGRAPH_LIBRARY, a repository's release build, the bundled copy."""
    explicit = os.environ.get("NAVGRAPH_LIBRARY")
    if explicit:
        return [explicit]
    found = []
    for start in (os.getcwd(), os.path.dirname(os.path.abspath(__file__))):
        directory = start
        while True:
            found.append(os.path.join(directory, ".build", "release", LIBRARY_NAME))
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
    found.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib", LIBRARY_NAME))
    return found


def _swift_runtime_dir():
    """The Swift toolchain's runtime folder (…/usr/lib/swift/linux) from the `swift` on PATH, or None."""
    swift = shutil.which("swift")
    if not swift:
        return None
    directory = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), "lib", "swift", "linux")
    return directory if os.path.isdir(directory) else None


def _preload_swift_runtime():
    """Loads the toolchain's runtime libraries globally, retrying in rounds until their own dependencies resolve."""
    directory = _swift_runtime_dir()
    if directory is None:
        return False
    pending = sorted(glob.glob(os.path.join(directory, "*.so")))
    while pending:
        left = []
        for path in pending:
            try:
                ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
            except OSError:
                left.append(path)
        if len(left) == len(pending):
            break
        pending = left
    return True


def _declare(lib):
    """Argument and result types of every exported function (see Sources/NavGraphC/NavGraphC.swift)."""
    c_char_p, c_void_p, c_int32, c_ssize = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_ssize_t
    lib.ng_open.argtypes, lib.ng_open.restype = [c_char_p, c_int32], c_void_p
    lib.ng_close.argtypes, lib.ng_close.restype = [c_void_p], None
    for name in ("ng_route", "ng_isochrone", "ng_nearest"):
        function = getattr(lib, name)
        function.argtypes, function.restype = [c_void_p, c_char_p], c_void_p
    lib.ng_info.argtypes, lib.ng_info.restype = [c_void_p], c_void_p
    lib.ng_matrix.argtypes = [c_void_p, c_char_p, c_int32, c_ssize, c_ssize, c_int32, c_void_p, c_void_p, c_void_p, c_ssize]
    lib.ng_matrix.restype = c_int32
    for name in ("ng_last_error_code", "ng_last_error_message", "ng_version"):
        function = getattr(lib, name)
        function.argtypes, function.restype = [], c_void_p
    lib.ng_free.argtypes, lib.ng_free.restype = [c_void_p], None
    return lib


def library():
    """The loaded engine (once per process); raises OSError naming every place searched."""
    global _library
    with _lock:
        if _library is not None:
            return _library
        candidates = _candidates()
        path = next((candidate for candidate in candidates if os.path.isfile(candidate)), None)
        if path is None:
            raise OSError("navgraph: libNavGraphC.so not found; build it with `swift build -c release --product NavGraphC` "
                          "or set NAVGRAPH_LIBRARY (searched: " + ", ".join(candidates[:3]) + ", ...)")
        phrasebook = os.path.join(os.path.dirname(path), "navgraph_NavGraphCore.resources", "phrasebook")
        if "NAVGRAPH_PHRASEBOOK_DIR" not in os.environ and os.path.isdir(phrasebook):
            os.environ["NAVGRAPH_PHRASEBOOK_DIR"] = phrasebook
        try:
            lib = ctypes.CDLL(path)
        except OSError as first:
            if not _preload_swift_runtime():
                raise OSError(f"navgraph: cannot load {path} ({first}) and no `swift` on PATH to find the Swift runtime") from first
            lib = ctypes.CDLL(path)
        _library = _declare(lib)
        return _library


def take_string(lib, pointer):
    """The text of a malloc'd C string from the engine, freed."""
    if not pointer:
        return None
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.ng_free(pointer)
