//! What one seat may see: derived from the zones' declared visibility (`G`, the counters, the
//! board and the turn are public), for the terminal, the window, bots and, later, the network.
//! Also the determinizer that lets a bot decide, and the rules' text hooks run, on a world
//! re-dealt from what one seat knows.

use super::{Game, GameError};
use crate::core::action::Action;
use crate::core::rng::{splitmix64, GameRng};
use crate::core::world::World;
use crate::core::zone::{self, Seen};
use serde_json::{json, Map, Value as Json};

impl Game {
    /// Whether some zone hides items from `seat` (`None`: a spectator).
    pub fn hides_from(&self, seat: Option<usize>) -> bool {
        let seats = self.config.seats;
        self.pkg
            .zones
            .iter()
            .any(|z| (0..z.piles(seats)).any(|p| !z.shows_items(p, seat)))
    }

    /// Everything `seat` may see (`None`: a spectator, who sees only public things). Other
    /// seats' answers to an open simultaneous decision are never part of it, nor who else is
    /// asked (`waiting` holds the seat itself while its answer is due). Once the game is over
    /// every pile is laid open.
    pub fn view(&self, seat: Option<usize>) -> Result<Json, GameError> {
        let snap = self.snapshot()?;
        let w = &snap.world;
        let mut zones = Map::new();
        for (spec, piles) in self.pkg.zones.iter().zip(self.seen_zones_in(w, seat)) {
            let value = if spec.per_seat {
                json!(piles)
            } else {
                piles.first().map_or(Json::Null, |p| json!(p))
            };
            zones.insert(spec.name.clone(), value);
        }
        let counters: Map<String, Json> = self
            .pkg
            .counters
            .iter()
            .zip(&w.counters)
            .map(|(name, values)| (name.clone(), json!(values)))
            .collect();
        let waiting: Vec<usize> = (self.waiting().into_iter())
            .filter(|s| Some(*s) == seat)
            .map(|s| s + 1)
            .collect();
        let mut view = json!({
            "seat": seat.map(|s| s + 1),
            "state": snap.state,
            "current": w.current + 1,
            "turn": w.turn,
            "round": w.round,
            "counters": counters,
            "zones": zones,
            "waiting": waiting,
            "outcome": w.outcome,
        });
        if let Some(grid) = &w.grid {
            view["grid"] = json!(grid);
        }
        view["g"] = snap.g;
        Ok(view)
    }

    /// Every declared zone's piles (one, or one per seat) in world `w` as `seat` sees them;
    /// once the game is over every pile is laid open. The one source of the JSON view, the
    /// terminal and the window.
    pub fn seen_zones_in(&self, w: &World, seat: Option<usize>) -> Vec<Vec<Seen>> {
        let over = w.outcome.is_some();
        self.pkg
            .zones
            .iter()
            .zip(&w.zones)
            .map(|(spec, piles)| {
                (piles.iter().enumerate())
                    .map(|(p, items)| match over {
                        true => Seen::Items(items.clone()),
                        false => spec.seen(p, items, seat),
                    })
                    .collect()
            })
            .collect()
    }

    /// Re-deals everything `seat` cannot see (see `zone::determinize`), reseeds the generator
    /// and shuffles every deck's draw pile, so whatever runs next knows only what the seat
    /// knows; in a game whose zones hide nothing from the seat, no zone is re-dealt. Other
    /// seats' answers to an open simultaneous decision are secret too: each becomes that
    /// seat's default answer (or its first option) in the re-dealt world. Go back to a mark
    /// to get the true position back.
    pub fn determinize(&mut self, seat: usize, seed: u64) -> Result<(), GameError> {
        self.determinize_for(Some(seat), seed)
    }

    /// `determinize` for any viewer (`None`: a spectator, who sees only public things).
    pub fn determinize_for(&mut self, seat: Option<usize>, seed: u64) -> Result<(), GameError> {
        self.moves += 1;
        if !self.hides_from(seat) {
            self.rules.reseed(seed);
            return self.forget_answers(seat);
        }
        let mut zones = self.world()?.zones;
        let mut rng = GameRng::from_seed(seed);
        zone::determinize(&self.pkg.zones, &mut zones, seat, &mut rng);
        self.rules.set_zones(&zones)?;
        self.rules.reseed(splitmix64(seed));
        self.forget_answers(seat)
    }

    /// Replaces the answers other seats gave in the open simultaneous decision.
    fn forget_answers(&mut self, seat: Option<usize>) -> Result<(), GameError> {
        let Some(claim) = self.rules.claim()? else {
            return Ok(());
        };
        let mut answers = Vec::with_capacity(claim.answers.len());
        for (q, given) in claim.seats.iter().zip(&claim.answers) {
            if Some(*q) == seat {
                answers.push(given.clone());
                continue;
            }
            let options: Vec<Action> = self.rules.answers_of(*q)?;
            let pick = match self.default_option(&options) {
                Some(i) => options[i].clone(),
                None => given.clone(),
            };
            answers.push(pick);
        }
        self.rules.set_answers(&answers)
    }
}
