// Everything in this module is inline in its headers; this file only gives the target a source to compile.
#include "CMemoryAccess.h"
