//! A pile of exposed melds, as the tiles were laid one meld after another, split back into
//! its melds for display: sets of three or four alike, runs of three (in any order, only
//! where the game's meld shapes allow runs), and a tile alike an earlier set of three that
//! was laid later to make it four (an added kong).

use super::meld::Shapes;

/// The melds of `items` (tile codes in the order laid), each as its items' indices in the
/// pile, in the order the melds were laid; `None` when the pile is not all melds.
pub fn split(shapes: &Shapes, items: &[i64]) -> Option<Vec<Vec<usize>>> {
    let mut melds = Vec::new();
    lay(shapes, items, 0, &mut melds).then_some(melds)
}

/// Splits `items[i..]` onto `melds` (the melds found before `i`); false, with `melds` as it
/// was, when no split exists.
fn lay(shapes: &Shapes, items: &[i64], i: usize, melds: &mut Vec<Vec<usize>>) -> bool {
    if i == items.len() {
        return true;
    }
    let tile = items[i];
    for size in [4, 3] {
        let alike = items
            .get(i..i + size)
            .is_some_and(|s| s.iter().all(|t| *t == tile));
        if alike && try_meld(shapes, items, i, size, melds) {
            return true;
        }
    }
    if is_run(shapes, items.get(i..i + 3)) && try_meld(shapes, items, i, 3, melds) {
        return true;
    }
    // A fourth tile for an earlier set of three.
    let set = melds
        .iter()
        .position(|m| m.len() == 3 && m.iter().all(|k| items[*k] == tile));
    if let Some(m) = set {
        melds[m].push(i);
        if lay(shapes, items, i + 1, melds) {
            return true;
        }
        melds[m].pop();
    }
    false
}

/// Takes `items[i..i + size]` as one meld and splits the rest.
fn try_meld(
    shapes: &Shapes,
    items: &[i64],
    i: usize,
    size: usize,
    melds: &mut Vec<Vec<usize>>,
) -> bool {
    melds.push((i..i + size).collect());
    if lay(shapes, items, i + size, melds) {
        return true;
    }
    melds.pop();
    false
}

/// Three tiles that sort into a run the shapes allow.
fn is_run(shapes: &Shapes, three: Option<&[i64]>) -> bool {
    let Some(three) = three else { return false };
    let mut t = [three[0], three[1], three[2]];
    t.sort_unstable();
    let Ok(low) = usize::try_from(t[0]) else {
        return false;
    };
    t[1] == t[0] + 1 && t[2] == t[0] + 2 && shapes.runs_from(low)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mahjong's shapes: three suits of nine with runs, seven honours without.
    fn shapes() -> Shapes {
        Shapes::new(34, &[(0, 8), (9, 17), (18, 26)])
    }

    #[test]
    fn a_kong_then_a_pung_are_two_melds() {
        let items = [0, 0, 0, 0, 6, 6, 6];
        let melds = split(&shapes(), &items).unwrap();
        assert_eq!(melds, vec![vec![0, 1, 2, 3], vec![4, 5, 6]]);
    }

    #[test]
    fn a_pung_then_a_run_from_the_same_tile_split_as_laid() {
        // 1万 1万 1万 then 1万 2万 3万: not a kong followed by 2万 3万.
        let melds = split(&shapes(), &[0, 0, 0, 0, 1, 2]).unwrap();
        assert_eq!(melds, vec![vec![0, 1, 2], vec![3, 4, 5]]);
    }

    #[test]
    fn a_run_laid_in_any_order_and_a_later_fourth_tile_join_their_melds() {
        // pung of 7万, run 3条 1条 2条, then the fourth 7万 (an added kong).
        let melds = split(&shapes(), &[6, 6, 6, 11, 9, 10, 6]).unwrap();
        assert_eq!(melds, vec![vec![0, 1, 2, 6], vec![3, 4, 5]]);
    }

    #[test]
    fn honours_and_suit_ends_make_no_runs_and_odd_piles_do_not_split() {
        // 东 南 西 are codes 27 28 29: no run among honours; 8万 9万 1条 crosses suits.
        assert_eq!(split(&shapes(), &[27, 28, 29]), None);
        assert_eq!(split(&shapes(), &[7, 8, 9]), None);
        assert_eq!(split(&shapes(), &[3, 3]), None);
        assert_eq!(split(&shapes(), &[]), Some(vec![]));
    }
}
