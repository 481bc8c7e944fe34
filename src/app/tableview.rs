//! What a table of zones shows, taken from one seat's view of the game
//! (`Game::seen_zones_in`): the window never reads a pile its viewer may not see. Also which
//! tile or pile the rules play an option on (`R.spot`), so a click on it plays it.

use super::view::Spot;
use crate::core::action::Arg;
use crate::core::meld::Shapes;
use crate::core::world::World;
use crate::core::zone::Seen;
use crate::engine::Game;

#[derive(Clone, Debug, PartialEq)]
pub struct ZoneView {
    pub name: String,
    pub per_seat: bool,
    /// Each pile is shown split into melds (`layout = "melds"`, by `TableView::shapes`).
    pub melds: bool,
    /// One pile, or one per seat.
    pub piles: Vec<Seen>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableView {
    /// The seat whose eyes these are (`None`: public things only).
    pub viewer: Option<usize>,
    pub seats: usize,
    pub zones: Vec<ZoneView>,
    /// How the item codes are shown (their labels).
    pub names: Vec<String>,
    /// The game's meld shapes (`[melds]`), if it declares them.
    pub shapes: Option<Shapes>,
}

impl TableView {
    /// The table of `game` whose world (`Game::world`) is `world`.
    pub fn read(game: &Game, world: &World, viewer: Option<usize>) -> TableView {
        let zones = game
            .pkg
            .zones
            .iter()
            .zip(game.seen_zones_in(world, viewer))
            .map(|(z, piles)| ZoneView {
                name: z.name.clone(),
                per_seat: z.per_seat,
                melds: z.melds,
                piles,
            })
            .collect();
        TableView {
            viewer,
            seats: game.config.seats,
            zones,
            names: game.pkg.items.labels.clone(),
            shapes: game.pkg.melds.clone(),
        }
    }

    /// How an item code is shown.
    pub fn name(&self, code: i64) -> String {
        crate::def::item_name(&self.names, code)
    }

    /// The per-seat zones, in the order game.toml lists them (bands from the edge inwards).
    pub fn seat_zones(&self) -> impl Iterator<Item = (usize, &ZoneView)> {
        self.zones.iter().enumerate().filter(|(_, z)| z.per_seat)
    }

    /// The spots of a place `R.spot` gives: a shared zone's pile (its name), or items the
    /// viewer holds in its own pile of a per-seat zone (the zone's name and the items' codes,
    /// several when they are picked together; a code twice is two copies). None (a button)
    /// when the viewer does not hold them all.
    pub fn spots_of(&self, place: &[Arg]) -> Vec<Spot> {
        let zone_named = |name: &str| self.zones.iter().position(|z| z.name == name);
        let Some(Arg::Str(name)) = place.first() else {
            return Vec::new();
        };
        let Some(zone) = zone_named(name) else {
            return Vec::new();
        };
        let codes = &place[1..];
        if codes.is_empty() {
            return match self.zones[zone].per_seat {
                false => vec![Spot::Pile(zone)],
                true => Vec::new(),
            };
        }
        if !self.zones[zone].per_seat {
            return Vec::new();
        }
        let (Some(seat), Some(Seen::Items(held))) = (
            self.viewer,
            self.viewer.and_then(|v| self.zones[zone].piles.get(v)),
        ) else {
            return Vec::new();
        };
        let codes: Option<Vec<i64>> = (codes.iter())
            .map(|c| match c {
                Arg::Int(c) => Some(*c),
                _ => None,
            })
            .collect();
        let Some(codes) = codes.filter(|c| crate::core::zone::missing(held, c).is_empty()) else {
            return Vec::new();
        };
        (codes.into_iter())
            .map(|code| Spot::Tile { zone, seat, code })
            .collect()
    }
}
