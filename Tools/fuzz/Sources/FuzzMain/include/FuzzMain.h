// The entry points of the fuzz executables: see FuzzMain.c.
