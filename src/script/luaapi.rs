//! The one description of the Lua API: every part of `ctx` with its functions and fields, and
//! the hooks the rules (`R`) and AI (`AI`) tables may define, each with parameter and return
//! types and a one-line doc. The editor types and docs/lua-api.md are made from it
//! (`luatypes`), and a test holds it equal to what the host registers in a live `ctx`.

/// A table rules reach (`ctx.grid`) or define (`R`), as one LuaLS class.
pub struct Class {
    /// The class name in the types, e.g. `meeple.Grid`.
    pub name: &'static str,
    /// How rules reach it, e.g. `ctx.grid`.
    pub path: &'static str,
    pub doc: &'static str,
    pub members: &'static [Member],
}

/// A function or field of a class.
pub struct Member {
    pub name: &'static str,
    pub kind: Kind,
    pub doc: &'static str,
}

/// A name and a type: `("p", "integer")`. A name ending in `?` is optional; `...` is the rest.
pub type Typed = (&'static str, &'static str);

pub enum Kind {
    /// Called with a colon: `ctx.grid:get(r, c)`.
    Method(&'static [Typed], &'static [Typed]),
    /// A function the script may define and the runtime calls (a hook); optional.
    Hook(&'static [Typed], &'static [Typed]),
    /// A value of this type.
    Field(&'static str),
}

const fn method(
    name: &'static str,
    params: &'static [Typed],
    returns: &'static [Typed],
    doc: &'static str,
) -> Member {
    Member {
        name,
        kind: Kind::Method(params, returns),
        doc,
    }
}

const fn hook(
    name: &'static str,
    params: &'static [Typed],
    returns: &'static [Typed],
    doc: &'static str,
) -> Member {
    Member {
        name,
        kind: Kind::Hook(params, returns),
        doc,
    }
}

const fn field(name: &'static str, ty: &'static str, doc: &'static str) -> Member {
    Member {
        name,
        kind: Kind::Field(ty),
        doc,
    }
}

const P: Typed = ("p", "integer");
const SPACE: Typed = ("space", "integer|string");
const RC: [Typed; 2] = [("r", "integer"), ("c", "integer")];
const G: Typed = ("G", "table");
const CTX: Typed = ("ctx", "meeple.Ctx");
const SEAT: Typed = ("seat", "integer");
const NEXT: Typed = ("next", "meeple.StateName?");

pub const CLASSES: &[Class] = &[
    Class {
        name: "meeple.Ctx",
        path: "ctx",
        doc: "What the runtime owns, passed to every hook: turn order, components, settings.",
        members: &[
            method("seats", &[], &[("", "integer")], "The number of seats."),
            method("current", &[], &[("", "integer")], "The seat whose turn it is."),
            method("turn", &[], &[("", "integer")], "Turns started (from 1)."),
            method("round", &[], &[("", "integer")], "Rounds started (from 1); a round ends when turn order wraps."),
            method("state", &[], &[("", "meeple.StateName")], "The state the game is in (the decision pending, or the state whose hook runs)."),
            method("in_play", &[P], &[("", "boolean")], "False once seat `p` has been eliminated."),
            method("active", &[], &[("", "integer[]")], "The seats still in play."),
            method("active_count", &[], &[("", "integer")], "How many seats are still in play."),
            method("next_player", &[("p?", "integer")], &[("", "integer")], "Passes the turn to the next seat in play, or to seat `p`; returns it. A turn that comes round to an earlier seat starts a new round (so does every turn of a lone seat in play); `p` being the current seat starts a new turn in the same round."),
            method("eliminate", &[P], &[], "Takes seat `p` out of play."),
            method("win", &[("...", "integer")], &[], "Records the winners, one seat or more (the first recorded result counts)."),
            method("draw", &[], &[], "Records a draw."),
            method("log", &[("text", "string"), ("...", "any")], &[], "Adds a line to the event log; with more arguments `text` is a `string.format` pattern. A table or function argument without `__tostring` is an error: its text is an address, which differs from run to run."),
            method("tell", &[("p", "integer"), ("text", "string"), ("...", "any")], &[], "Adds a line to the event log that only seat `p` is shown, as `(P1 only) …` (what it drew into its hidden hand); formatted as `ctx:log` formats."),
            field("logging", "boolean", "Whether `ctx:log` and `ctx:tell` lines are kept (false in games that record no events, where both do nothing)."),
            method("tally", &[("name", "string"), ("key", "string|number"), ("n?", "integer")], &[], "Adds `n` (a whole number, 0 or more; default 1) to a named count that `sim` reports."),
            field("settings", "meeple.Settings", "The game's `[settings]` after `--set` overrides, read-only; reading an undeclared one is an error."),
            field("map", "meeple.Map", "The map being played."),
            field("dice", "meeple.Dice", "Dice rolled with the game's generator."),
            field("random", "meeple.Random", "The game's seeded generator."),
            field("board", "meeple.Board", "The track: spaces, tokens, owners and levels."),
            field("grid", "meeple.Grid", "The cells of a grid map."),
            field("decks", "table<string, meeple.Deck>", "The map's decks of cards by id."),
            field("deck", "meeple.DeckApi", "Draws and holds cards of the map's decks."),
            field("melds", "meeple.Melds", "Meld shapes over counts of items (game.toml `[melds]`)."),
            field("counter", "meeple.CounterApi", "Reads and changes per-seat counters."),
            field("counters", "meeple.Counters", "Read-only views of the counters: `ctx.counters.cash[p]`."),
            field("items", "meeple.ItemName[]", "The names of the item codes: `ctx.items[code + 1]`."),
            method("item", &[("code", "integer")], &[("", "meeple.Item")], "Item `code` as a new table: its `code`, `name`, `label` and the fields game.toml gives it (`[items]`)."),
            field("zone", "meeple.Zones", "The piles of the game's zones: `ctx.zone.wall`, `ctx.zone.hand[p]`."),
        ],
    },
    Class {
        name: "meeple.Map",
        path: "ctx.map",
        doc: "The map being played.",
        members: &[
            field("id", "string", "The map's id (`demo`)."),
            field("name", "string", "The map's name as shown."),
            field("kind", "\"track\"|\"grid\"|\"table\"", "The map's kind: a track of spaces, a grid of cells or a table of zones."),
        ],
    },
    Class {
        name: "meeple.Dice",
        path: "ctx.dice",
        doc: "Dice rolled with the game's generator; specs such as `2d6`, `d20`, `3d6+2`.",
        members: &[
            method("roll", &[("spec", "string")], &[("", "meeple.Roll")], "Rolls the dice: `{v1, v2, ..., total = n, doubles = bool}`. The log says the roll, as the seat's whose turn it is."),
            method("sum", &[("spec", "string")], &[("total", "integer"), ("doubles", "boolean"), ("...", "integer")], "The same roll as values: the total, whether doubles, then each die. Logged as `roll` is."),
        ],
    },
    Class {
        name: "meeple.Roll",
        path: "ctx.dice:roll(spec)",
        doc: "A roll: each die by position, their total and whether all are equal. Reading any other field is an error.",
        members: &[
            field("total", "integer", "The sum of the dice and the bonus."),
            field("doubles", "boolean", "Whether every die shows the same face, with two dice or more (2 + 2 on 2d6; on 5d6, all five alike)."),
            field("[integer]", "integer", "Each die's value."),
        ],
    },
    Class {
        name: "meeple.Random",
        path: "ctx.random",
        doc: "The game's seeded generator (Lua's `math.random` is removed).",
        members: &[
            method("int", &[("lo", "integer"), ("hi", "integer")], &[("", "integer")], "An integer in `lo..hi`, both included."),
            method("shuffle", &[("list", "any[]")], &[("", "any[]")], "Shuffles a list in place; returns it."),
            method("sample", &[("list", "any[]"), ("k", "integer")], &[("", "any[]")], "A new list of `k` items drawn from `list` without replacement (all of them, in a random order, when `list` is shorter)."),
        ],
    },
    Class {
        name: "meeple.Board",
        path: "ctx.board",
        doc: "The track of a track map: its spaces, and the tokens, owners and levels on them.",
        members: &[
            field("spaces", "meeple.Space[]", "Every space in board order (read-only, as the map file says)."),
            field("by_id", "table<string, meeple.Space>", "The spaces by id."),
            field("groups", "table<string, meeple.Space[]>", "The spaces of each group, in board order."),
            field("group_names", "string[]", "The groups' names, in board order of each group's first space."),
            field("size", "integer", "The number of spaces."),
            method("position", &[P], &[("", "integer")], "The index of the space seat `p`'s token is on."),
            method("move", &[P, ("steps", "integer")], &[("to", "integer"), ("laps", "integer"), ("over", "integer")], "Moves forward (negative: back); returns the space, the times the start was passed and, on a map with `loop = false`, the steps past the last space (or the first) where the token stopped. The log says the move (not one of 0 steps)."),
            method("advance_to", &[P, SPACE], &[("to", "integer"), ("laps", "integer")], "Moves forward to a space (a full lap if already there; on a map with `loop = false`, only to a space ahead), and logs the move."),
            method("place", &[P, SPACE], &[("", "integer")], "Puts the token on a space without passing anything; returns its index. The log says the move, unless the token was there."),
            method("owner", &[SPACE], &[("", "integer?")], "The seat owning a space, or nil."),
            method("set_owner", &[SPACE, ("p", "integer?")], &[], "Sets a space's owner (nil clears it)."),
            method("level", &[SPACE], &[("", "integer")], "A space's integer mark (buildings), default 0."),
            method("set_level", &[SPACE, ("n", "integer")], &[], "Sets a space's level."),
            method("owned_by", &[P], &[("", "integer[]")], "The indices of the spaces seat `p` owns."),
            method("group_owned", &[SPACE, P], &[("", "integer")], "How many spaces of the space's group seat `p` owns (a space without a group is a group of its own)."),
            method("group_levels", &[SPACE], &[("lowest", "integer"), ("highest", "integer")], "The lowest and the highest level in the space's group."),
            field("owners", "table<integer, integer>", "Read-only: the owner of each space index (nil if none)."),
            field("levels", "integer[]", "Read-only: the level of each space index."),
            field("positions", "integer[]", "Read-only: the space each seat's token is on."),
        ],
    },
    Class {
        name: "meeple.Space",
        path: "ctx.board.spaces[i]",
        doc: "A space of the track: the map's keys for it and its `data` keys.",
        members: &[
            field("index", "integer", "Its place on the board, from 1."),
            field("id", "string", "Its id in the map file."),
            field("name", "string", "Its name as shown."),
            field("kind", "string", "Its kind (one of the game's `space_kinds`)."),
            field("group", "string?", "Its group, if it has one."),
            field("jump", "integer?", "The index of the space its `jump` leads to (a snake, a ladder), if it has one."),
            field("[string]", "any", "Its `data` keys."),
        ],
    },
    Class {
        name: "meeple.Grid",
        path: "ctx.grid",
        doc: "The cells of a grid map; rows, columns and seats count from 1.",
        members: &[
            field("rows", "integer", "The grid's rows (nil on a track map)."),
            field("cols", "integer", "The grid's columns (nil on a track map)."),
            method("get", &RC, &[("", "integer?")], "The seat whose stone is on the cell, or nil if it is empty."),
            method("set", &[RC[0], RC[1], ("p", "integer?")], &[], "Puts seat `p`'s stone on the cell (nil empties it); what stood there goes, its mark too."),
            method("level", &[RC[0], RC[1]], &[("", "integer")], "The mark on the cell's stone (a checkers king, a promoted piece): 0 for none, and for an empty cell."),
            method("set_level", &[RC[0], RC[1], ("n", "integer")], &[], "Marks the cell's stone with `n` (0 to 250; 0 clears it). The terminal shows it as `●¹` (`●⁺` above 9), the window as a ring inside the stone (and `n` above 1). A stone that moves takes its mark along only when the rules set it again."),
            method("line", &[RC[0], RC[1], ("dr", "integer"), ("dc", "integer"), P], &[("len", "integer"), ("open", "integer")], "`p`'s run through the cell along a direction and back, and how many of its ends are empty."),
            method("longest", &[RC[0], RC[1], P], &[("", "integer")], "The longest run of `p` through the cell over the four directions."),
            method("runs", &[RC[0], RC[1], P], &[("", "integer"), ("", "integer"), ("", "integer"), ("", "integer")], "The four run lengths through the cell: horizontal, vertical, down-right, down-left."),
            method("completing", &[P, ("n", "integer"), ("exact?", "boolean")], &[("", "integer[]")], "The empty cells' indices where a stone of `p` makes a run of `n` or more (exactly `n`)."),
            method("empty_near", &[("d", "integer")], &[("", "integer[]")], "The empty cells' indices within `d` steps of any stone."),
            method("random_near", &[("d", "integer")], &[("r", "integer?"), ("c", "integer?")], "An empty cell within `d` steps of any stone, drawn with the game's generator, or nil."),
            method("has_neighbor", &[RC[0], RC[1], ("d", "integer")], &[("", "boolean")], "Whether a stone other than the cell's own lies within `d` steps."),
            method("stones", &[], &[("", "integer")], "The number of stones on the board."),
            method("cells", &[], &[("", "integer[]")], "Every cell by index: 0 if empty, else the seat (a copy)."),
            method("empty_options", &[("verb?", "string")], &[("", "meeple.Option[]")], "The option `{verb, r, c}` (`\"place\"` by default) for every empty cell, row by row."),
            method("random_empty", &[], &[("r", "integer?"), ("c", "integer?")], "An empty cell drawn with the game's generator, or nil if the board is full."),
        ],
    },
    Class {
        name: "meeple.CounterApi",
        path: "ctx.counter",
        doc: "Per-seat integer counters declared in game.toml `counters`.",
        members: &[
            method("get", &[P, ("name", "meeple.CounterName")], &[("", "integer")], "The value of a seat's counter."),
            method("set", &[P, ("name", "meeple.CounterName"), ("v", "integer")], &[("", "integer")], "Sets a seat's counter; returns the new value."),
            method("add", &[P, ("name", "meeple.CounterName"), ("n", "integer")], &[("", "integer")], "Changes a seat's counter by `n`; returns the new value."),
            method("transfer", &[("from", "integer"), ("to", "integer"), ("name", "meeple.CounterName"), ("n", "integer")], &[("", "integer"), ("", "integer")], "Moves `n` from one seat's counter to another's (a payment); returns both new values."),
        ],
    },
    Class {
        name: "meeple.Deck",
        path: "ctx.decks[id]",
        doc: "A deck of the map's cards.",
        members: &[
            field("id", "string", "The deck's id."),
            field("name", "string", "The deck's name as shown."),
            field("cards", "meeple.Card[]", "Its cards in file order (read-only, as the deck file says)."),
        ],
    },
    Class {
        name: "meeple.Card",
        path: "ctx.decks[id].cards[i]",
        doc: "A card: the deck file's keys for it and its `data` keys.",
        members: &[
            field("deck", "string", "The id of its deck."),
            field("index", "integer", "Its place in the deck file, from 1."),
            field("id", "string", "Its id."),
            field("text", "string", "Its text, `{name}`s filled in."),
            field("effect", "string?", "The name of its effect in `R.effects`."),
            field("[string]", "any", "Its `data` keys."),
        ],
    },
    Class {
        name: "meeple.Item",
        path: "ctx:item(code)",
        doc: "An item (a card, a tile): a new table each call, safe to keep in `G`.",
        members: &[
            field("code", "integer", "Its code, from 0."),
            field("name", "string", "Its name (`ctx.items[code + 1]`), as options and typed actions name it."),
            field("label", "string", "How it is shown: `[items] label` (`{rank}{sym}`: `Q♠`), a listed item's `label` (`{ name = \"N\", label = \"北\" }`), or its name."),
            field("[string]", "any", "The fields game.toml gives it (`[items]`), such as `rank`. A name close to a field's (`suite`) is an error at the reading line."),
        ],
    },
    Class {
        name: "meeple.DeckApi",
        path: "ctx.deck",
        doc: "Draws from the map's decks; the discard is reshuffled when a pile is empty.",
        members: &[
            method("draw", &[("deck", "string")], &[("", "meeple.Card?")], "The top card of the deck, or nil if every card is held. The log says the card drawn."),
            method("keep", &[("deck", "string"), ("card", "meeple.Card|string"), P], &[], "Seat `p` keeps a drawn card out of the deck."),
            method("give_back", &[("deck", "string"), ("card", "meeple.Card|string")], &[("", "integer")], "Returns a kept card to the discard; returns the seat that held it."),
            method("held", &[P], &[("", "meeple.Card[]")], "The cards seat `p` holds, from every deck."),
        ],
    },
    Class {
        name: "meeple.Melds",
        path: "ctx.melds",
        doc: "Meld shapes over counts (`counts[code + 1]` copies of item `code`).",
        members: &[
            method("complete", &[("counts", "integer[]"), ("g", "integer")], &[("", "boolean")], "Whether the counts split exactly into `g` melds and one pair."),
            method("contains", &[("counts", "integer[]"), ("g", "integer")], &[("", "boolean")], "Whether the counts hold `g` melds and a pair, other items left over."),
            method("shanten", &[("counts", "integer[]"), ("g", "integer")], &[("", "integer")], "Items to change before they hold `g` melds and a pair, minus one."),
            method("distance", &[("counts", "integer[]"), ("draws", "integer[]"), ("g", "integer")], &[("", "integer")], "After how many of `draws` they first hold `g` melds and a pair."),
        ],
    },
    Class {
        name: "meeple.Pile",
        path: "pile",
        doc: "A pile of item codes: `ctx.zone.<name>`, or `ctx.zone.<name>[p]` for a zone per seat.",
        members: &[
            field("list", "integer[]", "The live list, for reading: a pile changes only through its methods."),
            field("name", "string", "The zone's name."),
            field("shown", "string", "How an error names the pile: `ctx.zone.hole[2]`."),
            field("random", "meeple.Random", "The generator `pile:shuffle` uses."),
            method("count", &[], &[("", "integer")], "The number of items."),
            method("items", &[], &[("", "integer[]")], "A copy of the list."),
            method("top", &[], &[("", "integer?")], "The last item (the top), or nil."),
            method("add", &[("...", "integer")], &[], "Puts items on top."),
            method("take", &[], &[("", "integer?")], "Takes the top item (nil if empty); `pile:remove(v)` takes out item v."),
            method("remove", &[("x", "integer")], &[("", "boolean")], "Takes out one `x` (false if none)."),
            method("has", &[("x", "integer")], &[("", "integer")], "How many `x` are there."),
            method("move", &[("x", "integer"), ("other", "meeple.Pile")], &[("", "boolean")], "Moves one `x` to another pile (false if none)."),
            method("deal", &[("other", "meeple.Pile"), ("n", "integer")], &[("", "integer")], "Moves up to `n` items from the top to another pile; returns how many."),
            method("counts", &[("kinds", "integer")], &[("", "integer[]")], "A list of `kinds` counts: `counts[code + 1]` copies of `code`."),
            method("sort", &[], &[], "Sorts by code."),
            method("shuffle", &[], &[], "Shuffles with the game's generator."),
            method("clear", &[], &[("", "integer[]")], "Empties the pile, returning its items."),
        ],
    },
    Class {
        name: "meeple.Rules",
        path: "R",
        doc: "The table `rules.lua` returns; every hook is optional.",
        members: &[
            hook("setup", &[G, CTX], &[("", "table?")], "Once, before the first state: fill `G` (or return a table that becomes `G`)."),
            field("states", "table<meeple.StateName, meeple.State>?", "Each state's hooks, by the state's name in `[flow]`."),
            field("effects", "table<string, function>?", "Card effects by name, called by your rules."),
            hook("label", &[G, CTX, ("option", "meeple.Option")], &[("", "string?")], "The text of an option (default: the action)."),
            hook("spot", &[G, CTX, ("option", "meeple.Option")], &[("...", "any")], "Where an option is played: `row, col` on a grid, a space on a track, a zone (and item codes in your own pile: several are picked together) on a table; nil for a button."),
            hook("status", &[G, CTX, SEAT], &[("", "string|string[]|nil")], "Shown after a player's counters in `play` and the window, the parts joined by ` · `; a `\\n` in one starts a new line."),
            hook("stats", &[G, CTX], &[("", "table<string, number>")], "Per-game numbers `sim` averages, at the end of each game (`play` in the terminal shows them)."),
            hook("why_not", &[G, CTX, ("action", "meeple.Option"), SEAT], &[("", "string?")], "Why a typed action is not allowed (nil: the default message)."),
            hook("random_move", &[G, CTX, SEAT], &[("", "meeple.Option?")], "A legal option for a search bot's playout (nil: pick among the options)."),
        ],
    },
    Class {
        name: "meeple.State",
        path: "R.states[name]",
        doc: "The hooks of one state of `[flow]`.",
        members: &[
            hook("enter", &[G, CTX, SEAT], &[NEXT], "On entering the state: the next state (nil allowed in decision and final states)."),
            hook("options", &[G, CTX, SEAT], &[("", "meeple.Option[]")], "The options of `seat` in a decision state."),
            hook("act", &[G, CTX, ("option", "meeple.Option"), SEAT, ("answers", "table<integer, meeple.Option>?")], &[NEXT], "Plays the chosen option: the next state, or nil to ask again. In a simultaneous state `option` and `seat` are the winning answer and its seat, and `answers` holds the answer of every seat `seats` listed, by seat (`answers[3]` is P3's option); elsewhere it is nil."),
            hook("seats", &[G, CTX], &[("", "integer[]")], "The seats a simultaneous state asks."),
            field("exits", "meeple.StateName[]?", "The states its hooks may move to, checked against `[flow]` when the rules load (a helper that makes a state, such as `grid.placing_turn`, sets it)."),
        ],
    },
    Class {
        name: "meeple.AI",
        path: "AI",
        doc: "The table `ai.lua` returns: heuristics for the bots.",
        members: &[
            hook("score", &[G, CTX, SEAT, ("option", "meeple.Option")], &[("", "number")], "The score of one option; the heuristic bot plays the best."),
            hook("scores", &[G, CTX, SEAT, ("options", "meeple.Option[]")], &[("", "number[]")], "Instead of `score`: the scores of the whole decision, one per option."),
            field("fixed", "table<string, number>?", "Scores of verbs that depend on nothing: `{ roll = 0 }`."),
            field("styles", "table<string, meeple.AI>?", "Other strategies, played by the `ai:<name>` bot."),
            hook("standing", &[G, CTX, SEAT], &[("", "number")], "How well the game stands for `seat`, from 0 (lost) to 1 (won). With it, the search bots' playouts stop after `horizon` decisions and score the seats by it, instead of playing to the end."),
            field("horizon", "integer?", "Decisions a search bot's playout runs before `standing` judges it (100)."),
        ],
    },
];

/// The member names of class `name` (`meeple.Rules`): what the runtime reads or calls.
pub fn member_names(name: &str) -> Vec<&'static str> {
    (CLASSES.iter().filter(|c| c.name == name))
        .flat_map(|c| c.members.iter().map(|m| m.name))
        .collect()
}

/// Aliases every game shares.
pub const ALIASES: &[(&str, &str, &str)] = &[(
    "meeple.Option",
    "any[]",
    "An option or action: `{verb, args...}`, e.g. `{\"place\", 8, 8}`.",
)];

/// The sandbox's removals: functions a script cannot reach, and why.
pub const REMOVED: &[(&str, &str)] = &[
    ("dofile", "files are loaded with require"),
    ("loadfile", "files are loaded with require"),
    ("load", "the sandbox runs no code made at run time"),
    ("collectgarbage", "the runtime manages memory"),
    (
        "math.random",
        "use ctx.random:int or ctx.dice: the game's seeded generator",
    ),
    (
        "math.randomseed",
        "the game's generator is seeded by the runtime",
    ),
    ("string.dump", "bytecode is neither made nor loaded"),
];

/// The libraries the sandbox leaves out, with the members an editor would offer.
pub const REMOVED_LIBRARIES: &[(&str, &[&str])] = &[
    (
        "io",
        &[
            "close", "flush", "input", "lines", "open", "output", "popen", "read", "tmpfile",
            "type", "write",
        ],
    ),
    (
        "os",
        &[
            "clock",
            "date",
            "difftime",
            "execute",
            "exit",
            "getenv",
            "remove",
            "rename",
            "setlocale",
            "time",
            "tmpname",
        ],
    ),
    (
        "debug",
        &[
            "debug",
            "gethook",
            "getinfo",
            "getlocal",
            "getmetatable",
            "getregistry",
            "getupvalue",
            "getuservalue",
            "sethook",
            "setlocal",
            "setmetatable",
            "setupvalue",
            "setuservalue",
            "traceback",
            "upvalueid",
            "upvaluejoin",
        ],
    ),
    ("package", &["loadlib", "searchpath"]),
];

/// The class reached at `path`.
pub fn class(path: &str) -> Option<&'static Class> {
    CLASSES.iter().find(|c| c.path == path)
}

#[cfg(test)]
mod tests {
    use super::{Kind, CLASSES};
    use crate::script::Host;
    use mlua::{Table, Value};
    use std::collections::BTreeSet;

    type Found = std::collections::BTreeMap<String, BTreeSet<String>>;

    /// The keys of every API table of a live `ctx`, by the path the API table gives it.
    fn walk(t: &Table, path: &str, found: &mut Found) {
        let keys: Vec<(String, Value)> = t.pairs::<String, Value>().flatten().collect();
        for (key, value) in keys {
            let inner = format!("{path}.{key}");
            if let (Value::Table(sub), Some(_)) = (&value, super::class(&inner)) {
                walk(sub, &inner, found);
            }
            found.entry(path.to_string()).or_default().insert(key);
        }
    }

    /// A pile's own fields and its methods (its metatable's `__index`).
    fn walk_pile(host: &Host, found: &mut Found) {
        let zone: Table = host.ctx.raw_get("zone").unwrap();
        let pile: Table = zone.raw_get("wall").unwrap();
        let methods: Table = pile.metatable().unwrap().raw_get("__index").unwrap();
        for t in [pile, methods] {
            let keys = t.pairs::<String, Value>().flatten().map(|(k, _)| k);
            found.entry("pile".into()).or_default().extend(keys);
        }
        // The metatable's own entries (`__index`, `__name`, …) are no members.
        found
            .get_mut("pile")
            .unwrap()
            .retain(|k| !k.starts_with("__"));
    }

    fn host(game: &str) -> Host {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games/").to_string() + game;
        let pkg = crate::def::load_package(std::path::Path::new(&dir));
        let pkg = std::sync::Arc::new(pkg.expect("a shipped game loads"));
        let board = pkg.maps[&pkg.default_map].clone();
        let settings = pkg.settings.clone();
        let seats = pkg.players.0;
        Host::load(pkg, &board, &settings, seats, 1).expect("the game starts")
    }

    /// Every name the host registers in `ctx` (on a track, a grid and a table of zones) has
    /// an entry in the API table, and every entry is registered.
    #[test]
    fn the_table_lists_every_registered_name() {
        let mut found = Found::new();
        for game in ["monopoly", "gomoku", "mahjong"] {
            let host = host(game);
            walk(&host.ctx, "ctx", &mut found);
            if game == "mahjong" {
                walk_pile(&host, &mut found);
            }
        }
        for (path, keys) in &found {
            let class = super::class(path).expect("walked paths have a class");
            let listed: BTreeSet<String> = (class.members.iter())
                .filter(|m| !m.name.starts_with('['))
                .map(|m| m.name.to_string())
                .collect();
            assert_eq!(
                keys, &listed,
                "{path}: registered (left) vs the API table (right)"
            );
        }
        for c in CLASSES
            .iter()
            .filter(|c| c.members.iter().any(|m| matches!(m.kind, Kind::Method(..))))
        {
            assert!(
                found.contains_key(c.path),
                "{}: not found in a live ctx",
                c.path
            );
        }
    }
}
