/*
** The Lua 5.4 core and standard libraries (lua-5.4.9/, patched: see PATCHES.md) compiled as one
** translation unit, arranged as Lua's own onelua.c (Lua.org, MIT; see LICENSE): the VM's
** internal functions become static, so the compiler can inline table lookups, comparisons
** and calls into the interpreter loop across what were separate files. src/lib.rs compiles
** this file.
*/

#include "lprefix.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* setup for luaconf.h */
#define LUA_CORE
#define LUA_LIB
#define ltable_c
#define lvm_c
#include "luaconf.h"

/* meeple: what lua-5.4.9/ changes (every change is marked "meeple:"; PATCHES.md lists them):
** one fixed string-hash seed, so that pairs() walks string keys in the same order on every run
** (a game replays exactly), and bounds on the library loops that run in C, where the
** instruction budget's hook cannot stop them. */
#define luai_makeseed(L)	(cast_void(L), 0x6d65706cu)
#define LUAI_MAXCLOOP		16777216
#define LUAI_MAXMATCHSTEPS	10000000

/* internal symbols stay inside this unit */
#undef LUAI_FUNC
#undef LUAI_DDEC
#undef LUAI_DDEF
#define LUAI_FUNC static
#define LUAI_DDEC(def) /* empty */
#define LUAI_DDEF static

/* core */
#include "lzio.c"
#include "lctype.c"
#include "lopcodes.c"
#include "lmem.c"
#include "lundump.c"
#include "ldump.c"
#include "lstate.c"
#include "lgc.c"
#include "llex.c"
#include "lcode.c"
#include "lparser.c"
#include "ldebug.c"
#include "lfunc.c"
#include "lobject.c"
#include "ltm.c"
#include "lstring.c"
#include "ltable.c"
#include "ldo.c"
#include "lvm.c"
#include "lapi.c"

/* auxiliary and standard libraries */
#include "lauxlib.c"
#include "lbaselib.c"
#include "lcorolib.c"
#include "ldblib.c"
#include "liolib.c"
#include "lmathlib.c"
#include "loadlib.c"
#include "loslib.c"
#include "lstrlib.c"
#include "ltablib.c"
#include "lutf8lib.c"
#include "linit.c"

/* meeple: the runtime's option checks (see loptions.c) */
#include "loptions.c"
