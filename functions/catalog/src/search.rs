//! Forgiving search: the words of the catalogue (names, pack labels, descriptions, category names) and, for
//! a search word that appears nowhere, the nearest of them by Damerau-Levenshtein distance (optimal string
//! alignment: an insertion, deletion, substitution or swap of two neighbours counts one). A word of up to 5
//! letters may be 1 edit off, a longer one 2; under 3 letters a word is too short to guess at.

use std::collections::BTreeMap;

/// Letters a search word needs before it is corrected.
const MIN_GUESS: usize = 3;
/// From this many letters a word may be 2 edits off.
const LONG_WORD: usize = 6;

/// The words of a catalogue, each with the number of drinks it appears in.
#[derive(Debug, Default)]
pub struct Index {
    words: BTreeMap<String, usize>,
}

/// The words of a text: runs of letters and digits, lower case.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

impl Index {
    /// Indexes each drink's text (one string per drink).
    pub fn new<'a>(texts: impl Iterator<Item = &'a str>) -> Self {
        let mut counts = BTreeMap::new();
        for text in texts {
            let mut seen: Vec<String> = words(text).collect();
            seen.sort();
            seen.dedup();
            for word in seen {
                *counts.entry(word).or_insert(0) += 1;
            }
        }
        Index { words: counts }
    }

    /// The catalogue's word nearest to `term` within its allowed edits: the fewest edits, then the word in
    /// the most drinks, then the first alphabetically. `None` for a word the catalogue has, one too short
    /// to guess at, or one with nothing near.
    pub fn suggest(&self, term: &str) -> Option<&str> {
        let term = term.to_lowercase();
        let length = term.chars().count();
        if length < MIN_GUESS || self.words.contains_key(&term) {
            return None;
        }
        let allowed = if length >= LONG_WORD { 2 } else { 1 };
        self.words
            .iter()
            .filter(|(word, _)| word.chars().count().abs_diff(length) <= allowed)
            .filter_map(|(word, &drinks)| {
                let edits = distance(&term, word);
                (edits <= allowed).then_some((edits, std::cmp::Reverse(drinks), word.as_str()))
            })
            .min()
            .map(|(_, _, word)| word)
    }
}

/// Damerau-Levenshtein distance (optimal string alignment) between two words, by characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back (for swaps), the previous and the current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_each_edit_and_a_swap_as_one() {
        assert_eq!(distance("cola", "cola"), 0);
        assert_eq!(distance("colla", "cola"), 1); // an extra letter
        assert_eq!(distance("cla", "cola"), 1); // a missing one
        assert_eq!(distance("coka", "cola"), 1); // a wrong one
        assert_eq!(distance("clao", "cola"), 2);
        assert_eq!(distance("ocla", "cola"), 1); // two neighbours swapped
        assert_eq!(distance("lemmon", "lemon"), 1);
        assert_eq!(distance("lmeon", "lemon"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("café", "cafe"), 1);
    }

    fn index() -> Index {
        Index::new(
            [
                "classic cola 24 x 330ml our original cola colas",
                "cherry cola colas",
                "lemon & lime zesty lemons and limes fruit sodas",
                "sparkling water waters",
            ]
            .into_iter(),
        )
    }

    #[test]
    fn a_misspelt_word_gets_the_nearest_word_of_the_catalogue() {
        let index = index();
        assert_eq!(index.suggest("colla"), Some("cola"));
        assert_eq!(index.suggest("lemmon"), Some("lemon"));
        assert_eq!(index.suggest("Sparklign"), Some("sparkling"));
        assert_eq!(index.suggest("watr"), Some("water"));
    }

    #[test]
    fn short_words_allow_one_edit_and_longer_ones_two() {
        let index = index();
        assert_eq!(index.suggest("clla"), Some("cola"));
        assert_eq!(index.suggest("cxlx"), None); // two edits in a short word
        assert_eq!(index.suggest("sprkling"), Some("sparkling"));
        assert_eq!(index.suggest("sprklin"), Some("sparkling"));
        assert_eq!(index.suggest("sprkl"), None);
    }

    #[test]
    fn known_words_too_short_and_far_ones_get_no_suggestion() {
        let index = index();
        assert_eq!(index.suggest("cola"), None);
        assert_eq!(index.suggest("cl"), None);
        assert_eq!(index.suggest("cucumber"), None);
    }

    #[test]
    fn ties_go_to_the_word_in_more_drinks() {
        // "colt" is one edit from "cola" (in 2 drinks) and from "bolt" (in 1).
        let index = Index::new(["cola", "cola", "bolt"].into_iter());
        assert_eq!(index.suggest("colt"), Some("cola"));
    }
}
