/*
** meeple: the option checks the runtime's flow driver makes on every decision (see
** src/script/rawoptions.rs), written against the table internals: each options list is checked
** whenever it is listed and each option as it is played, so the check costs a few table
** reads, not a round of API calls per element. Compiled into lua-one.c; the Rust side
** declares the two functions. Lengths are raw (no __len), element reads raw.
*/

/* Pushes the problem `what` (a format with one %s) about option number `i`, or about
** R.random_move's move when `i` is 0; returns 1. */
static int meeple_problem (lua_State *L, lua_Integer i, const char *what, const char *arg) {
  if (i > 0) lua_pushfstring(L, "option %I", (LUAI_UACINT)i);
  else lua_pushliteral(L, "R.random_move's move");
  lua_pushfstring(L, what, arg);
  lua_concat(L, 2);
  return 1;
}

/* Whether the UTF-8 text `c` (`n` bytes left) starts with a white-space character, as a typed
** action is split (Unicode White_Space: ASCII spaces and controls, U+0085, U+00A0, U+1680,
** U+2000-U+200A, U+2028, U+2029, U+202F, U+205F and U+3000). */
static int meeple_space_at (const unsigned char *c, size_t n) {
  if (*c == ' ' || (*c >= '\t' && *c <= '\r')) return 1;
  if (n >= 2 && c[0] == 0xC2) return c[1] == 0x85 || c[1] == 0xA0;
  if (n < 3) return 0;
  if (c[0] == 0xE1) return c[1] == 0x9A && c[2] == 0x80;
  if (c[0] == 0xE3) return c[1] == 0x80 && c[2] == 0x80;
  if (c[0] != 0xE2) return 0;
  if (c[1] == 0x80) return c[2] <= 0x8A || c[2] == 0xA8 || c[2] == 0xA9 || c[2] == 0xAF;
  return c[1] == 0x81 && c[2] == 0x9F;
}

/* 0 when `verb` can be typed as an action's first word; 1 when it is empty, 2 when it has a
** space (a typed action splits at spaces). */
static int meeple_verb_problem (TString *verb) {
  const unsigned char *c = (const unsigned char *)getstr(verb);
  size_t n = tsslen(verb), k;
  if (n == 0) return 1;
  for (k = 0; k < n; k++)
    if (meeple_space_at(c + k, n - k)) return 2;
  return 0;
}

/* Pushes the problem with the verb `verb` of option `i` and returns 1, or returns 0. */
static int meeple_bad_verb (lua_State *L, TString *verb, lua_Integer i) {
  int why = meeple_verb_problem(verb);
  if (why == 0) return 0;
  return meeple_problem(L, i, why == 1 ? ": the verb is empty%s"
                        : ": the verb '%s' has a space in it (arguments go after the verb: "
                          "{verb, args...})", getstr(verb));
}

/* The problem with option `v` (pushed, returns 1), or 0: a table whose first element is the
** verb (a string of one word) and whose other elements are numbers, strings or booleans. */
static int meeple_option_problem (lua_State *L, const TValue *v, lua_Integer i) {
  Table *o;
  const TValue *verb;
  lua_Unsigned n, j;
  if (ttisnil(v))
    return meeple_problem(L, i, " is nil%s: the list has a hole where a table {verb, args...} "
                          "should be", "");
  if (!ttistable(v))
    return meeple_problem(L, i, " is a %s, expected a table {verb, args...}",
                          ttypename(ttype(v)));
  o = hvalue(v);
  verb = luaH_getint(o, 1);
  if (!ttisstring(verb))
    return meeple_problem(L, i, ": the first element must be the verb (a string)%s", "");
  if (meeple_bad_verb(L, tsvalue(verb), i))
    return 1;
  n = luaH_getn(o);
  for (j = 2; j <= n; j++) {
    const TValue *a = luaH_getint(o, l_castU2S(j));
    if (!ttisnumber(a) && !ttisstring(a) && !ttisboolean(a))
      return meeple_problem(L, i, ": argument of type %s (use numbers, strings or booleans)",
                            ttypename(ttype(a)));
    if (ttisfloat(a) && fltvalue(a) - fltvalue(a) != 0)  /* NaN or an infinity */
      return meeple_problem(L, i, ": an argument is %s (use finite numbers: saves and replays "
                            "keep no other)", fltvalue(a) != fltvalue(a) ? "NaN"
                            : fltvalue(a) > 0 ? "infinite" : "minus infinite");
  }
  /* Read-only once offered (an option of a list, i > 0): what is played is what was checked,
  ** and a search that plays another option of the same list finds this one as it was.
  ** R.random_move's move (i == 0) is offered to nobody: the rules may fill it again. */
  if (i > 0 && o->metatable == NULL) o->flags |= BITRO;
  return 0;
}

/* bad_option(o, i) -> the problem with option `o`, number `i` of its list (nil: R.random_move's
** move), or nothing. */
int meeple_bad_option (lua_State *L) {
  lua_Integer i = lua_isnoneornil(L, 2) ? 0 : lua_tointeger(L, 2);
  lua_settop(L, 2);
  return meeple_option_problem(L, index2value(L, 1), i);
}

/* check(list) -> nothing when `list` is a valid options list, else the problem. A bare string
** option becomes {verb} in place. Each option is read-only from then on. */
int meeple_check_options (lua_State *L) {
  const TValue *v = index2value(L, 1);
  Table *t;
  lua_Unsigned n, i;
  if (!ttistable(v)) {
    lua_pushfstring(L, "options must return a list of options, got %s", luaL_typename(L, 1));
    return 1;
  }
  t = hvalue(v);
  n = luaH_getn(t);
  lua_settop(L, 1);
  for (i = 1; i <= n; i++) {
    const TValue *o = luaH_getint(t, l_castU2S(i));
    if (ttisstring(o)) {
      if (meeple_bad_verb(L, tsvalue(o), l_castU2S(i)))
        return 1;
      lua_createtable(L, 1, 0);
      lua_rawgeti(L, 1, l_castU2S(i));
      lua_rawseti(L, 2, 1);
      hvalue(index2value(L, 2))->flags |= BITRO;
      lua_rawseti(L, 1, l_castU2S(i));
    }
    else if (meeple_option_problem(L, o, l_castU2S(i)))
      return 1;
  }
  return 0;
}

/* freeze(t) -> t, read-only from now on: every write to it calls its '__newindex' (lvm.h's
** 'luaV_fastset'), and a raw write fails. */
int meeple_freeze (lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  hvalue(index2value(L, 1))->flags |= BITRO;
  lua_settop(L, 1);
  return 1;
}

/* Read-only (`on`) or writable again: a table without a metatable (one with a metatable is
** the rules' own kind, or the game's files, read-only for good). */
/* hold(t, on): while `on`, `t` is read-only (a write is an error at its line): an options
** list while a bot scores it. A table with a metatable is the rules' own kind: left as it is. */
int meeple_hold (lua_State *L) {
  Table *t;
  luaL_checktype(L, 1, LUA_TTABLE);
  t = hvalue(index2value(L, 1));
  if (t->metatable == NULL) {
    if (lua_toboolean(L, 2)) t->flags |= BITRO;
    else t->flags &= cast_byte(~BITRO);
  }
  return 0;
}

/* put(t, k, v): t[k] = v as a raw write, even into a read-only table: the runtime's own write
** into a table the rules may only read (ctx.log as recording starts and stops). */
int meeple_put (lua_State *L) {
  Table *t;
  lu_byte ro;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 3);
  t = hvalue(index2value(L, 1));
  ro = t->flags & BITRO;
  t->flags &= cast_byte(~BITRO);
  lua_rawset(L, 1);
  t->flags |= ro;
  return 0;
}
