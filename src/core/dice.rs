//! Dice specs (`"2d6"`, `"d20"`, `"3d6+2"`) and rolls on the game's generator. A roll keeps
//! every die so rules can see doubles.

use super::rng::GameRng;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DiceSpec {
    pub count: u32,
    pub sides: u32,
    pub bonus: i64,
}

/// Two or more dice all showing the same face.
pub fn doubles(faces: &[u32]) -> bool {
    faces.len() >= 2 && faces.iter().all(|v| *v == faces[0])
}

/// The most dice one spec may roll.
pub const MAX_DICE: usize = 100;

/// Parses `NdS`, `dS` or `NdS+K` / `NdS-K`; at most 100 dice of at most 1,000,000 sides, and
/// a bonus `K` of at most 1,000,000 (so no total can overflow).
pub fn parse_dice(text: &str) -> Result<DiceSpec, String> {
    let bad =
        || format!("bad dice spec '{text}' (expected forms like \"2d6\", \"d20\", \"3d6+2\")");
    let too_big = || {
        format!(
            "dice spec '{text}' is too big: at most {MAX_DICE} dice, 1,000,000 sides and a \
             bonus of 1,000,000"
        )
    };
    let t = text.trim();
    let (dice, bonus) = match t.find(['+', '-']) {
        Some(i) => {
            let digits = t[i + 1..].trim();
            if !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let b: i64 = digits.parse().map_err(|_| too_big())?;
            if b > 1_000_000 {
                return Err(too_big());
            }
            (&t[..i], if &t[i..i + 1] == "-" { -b } else { b })
        }
        None => (t, 0),
    };
    let (n, s) = dice.split_once(['d', 'D']).ok_or_else(bad)?;
    let number =
        |digits: &str| match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            true => digits.parse::<u64>().map_err(|_| too_big()),
            false => Err(bad()),
        };
    let count = if n.is_empty() { 1 } else { number(n)? };
    let sides = number(s)?;
    if count == 0 || sides == 0 {
        let what = if count == 0 {
            "no dice"
        } else {
            "dice of no sides"
        };
        return Err(format!(
            "dice spec '{text}' rolls {what}: roll at least one die of one side or more"
        ));
    }
    if count > MAX_DICE as u64 || sides > 1_000_000 {
        return Err(too_big());
    }
    let (count, sides) = (count as u32, sides as u32);
    Ok(DiceSpec {
        count,
        sides,
        bonus,
    })
}

/// Rolls `spec` into `faces` (one slot per die, `spec.count` long) and returns the total,
/// taking faces from `forced` first (a face above the die's sides is clamped).
pub fn roll_into(
    spec: DiceSpec,
    rng: &mut GameRng,
    forced: &mut std::collections::VecDeque<u32>,
    faces: &mut [u32],
) -> i64 {
    for face in faces.iter_mut() {
        *face = match forced.pop_front() {
            Some(v) => v.clamp(1, spec.sides),
            None => rng.below(spec.sides as u64) as u32 + 1,
        };
    }
    faces.iter().map(|v| *v as i64).sum::<i64>() + spec.bonus
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_forms() {
        assert_eq!(
            parse_dice("2d6").unwrap(),
            DiceSpec {
                count: 2,
                sides: 6,
                bonus: 0
            }
        );
        assert_eq!(
            parse_dice("d20").unwrap(),
            DiceSpec {
                count: 1,
                sides: 20,
                bonus: 0
            }
        );
        assert_eq!(
            parse_dice("3d6-2").unwrap(),
            DiceSpec {
                count: 3,
                sides: 6,
                bonus: -2
            }
        );
        assert_eq!(
            parse_dice("2x6").unwrap_err(),
            "bad dice spec '2x6' (expected forms like \"2d6\", \"d20\", \"3d6+2\")"
        );
        assert!(parse_dice("0d6").is_err());
        let limits = "is too big: at most 100 dice, 1,000,000 sides and a bonus of 1,000,000";
        for big in [
            "1000000d6",
            "1d1000001",
            "1d6+1000001",
            "99999999999999999999d6",
        ] {
            assert_eq!(
                parse_dice(big).unwrap_err(),
                format!("dice spec '{big}' {limits}")
            );
        }
        for odd in [
            "1d6--5",
            "1d6+-5",
            "1d6-9223372036854775808",
            "1d6+1000001",
            "1d6+",
            "2d",
            "d",
        ] {
            assert!(parse_dice(odd).is_err(), "{odd}");
        }
        assert_eq!(parse_dice("1d6-1000000").unwrap().bonus, -1_000_000);
    }

    #[test]
    fn doubles_need_two_equal_dice() {
        assert!(doubles(&[3, 3]));
        assert!(!doubles(&[3, 4]));
        assert!(!doubles(&[3]));
    }

    #[test]
    fn forced_faces_come_first_and_are_clamped() {
        let spec = parse_dice("3d6+2").unwrap();
        let mut forced = std::collections::VecDeque::from([9, 2]);
        let mut faces = [0; 3];
        let mut rng = GameRng::from_seed(1);
        let total = roll_into(spec, &mut rng, &mut forced, &mut faces);
        assert_eq!(&faces[..2], &[6, 2]);
        assert!((1..=6).contains(&faces[2]));
        assert_eq!(total, 6 + 2 + faces[2] as i64 + 2);
        assert!(forced.is_empty());
    }
}
