//! Decks of cards by index: a draw pile, a discard pile and cards held out of the deck by a
//! player (a get-out-of-jail card). Every card is in exactly one of the three places.

use super::rng::GameRng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckState {
    /// Top of the pile is the end of the vector.
    pub pile: Vec<u16>,
    pub discard: Vec<u16>,
    /// (card, seat) pairs, in the order they were kept.
    pub held: Vec<(u16, usize)>,
}

/// What a draw did: the card, and whether the discard had to be reshuffled first.
#[derive(Debug, PartialEq, Eq)]
pub struct Drawn {
    pub card: u16,
    pub reshuffled: bool,
}

impl DeckState {
    /// A fresh deck of `size` cards, shuffled.
    pub fn new(size: usize, rng: &mut GameRng) -> Self {
        let mut pile: Vec<u16> = (0..size as u16).collect();
        rng.shuffle(&mut pile);
        DeckState {
            pile,
            discard: Vec::new(),
            held: Vec::new(),
        }
    }

    /// Shuffles the draw pile anew. Its cards are sorted first, so the new order depends only
    /// on which cards are in it (what every player knows), never on the order it had.
    pub fn forget_order(&mut self, rng: &mut GameRng) {
        self.pile.sort_unstable();
        rng.shuffle(&mut self.pile);
    }

    /// Draws the top card to the discard pile, reshuffling the discard when the pile is empty.
    /// `None` when every card is held by players.
    pub fn draw(&mut self, rng: &mut GameRng) -> Option<Drawn> {
        let mut reshuffled = false;
        if self.pile.is_empty() {
            if self.discard.is_empty() {
                return None;
            }
            self.pile = std::mem::take(&mut self.discard);
            rng.shuffle(&mut self.pile);
            reshuffled = true;
        }
        let card = self.pile.pop()?;
        self.discard.push(card);
        Some(Drawn { card, reshuffled })
    }

    /// Moves a card from the discard pile into a player's keeping.
    pub fn keep(&mut self, card: u16, seat: usize) -> Result<(), String> {
        let i = self
            .discard
            .iter()
            .rposition(|c| *c == card)
            .ok_or_else(|| "only a drawn card can be kept".to_string())?;
        self.discard.remove(i);
        self.held.push((card, seat));
        Ok(())
    }

    /// Returns a held card to the discard pile.
    pub fn give_back(&mut self, card: u16) -> Result<usize, String> {
        let i = self
            .held
            .iter()
            .position(|(c, _)| *c == card)
            .ok_or_else(|| "that card is not held by anyone".to_string())?;
        let (_, seat) = self.held.remove(i);
        self.discard.push(card);
        Ok(seat)
    }

    pub fn held_by(&self, seat: usize) -> impl Iterator<Item = u16> + '_ {
        self.held
            .iter()
            .filter(move |(_, s)| *s == seat)
            .map(|(c, _)| *c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_without_replacement_then_reshuffles() {
        let mut rng = GameRng::from_seed(5);
        let mut d = DeckState::new(4, &mut rng);
        let mut first: Vec<u16> = (0..4).map(|_| d.draw(&mut rng).unwrap().card).collect();
        first.sort();
        assert_eq!(first, vec![0, 1, 2, 3]);
        let again = d.draw(&mut rng).unwrap();
        assert!(again.reshuffled);
        assert_eq!(d.pile.len() + d.discard.len(), 4);
    }

    #[test]
    fn held_card_leaves_the_deck_until_returned() {
        let mut rng = GameRng::from_seed(5);
        let mut d = DeckState::new(3, &mut rng);
        let c = d.draw(&mut rng).unwrap().card;
        d.keep(c, 1).unwrap();
        for _ in 0..10 {
            assert_ne!(d.draw(&mut rng).unwrap().card, c);
        }
        assert_eq!(d.held_by(1).collect::<Vec<_>>(), vec![c]);
        assert_eq!(d.give_back(c), Ok(1));
        assert_eq!(d.held_by(1).count(), 0);
        assert_eq!(d.keep(99, 0), Err("only a drawn card can be kept".into()));
    }
}
