//! Diagnostic helpers shared by every phase: "did you mean" suggestions.

/// The closest candidate to `name` by edit distance, if it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let candidates: Vec<&str> = candidates.into_iter().collect();
    // The same name in another case is the likeliest slip (`N` for `n`).
    if let Some(c) = candidates
        .iter()
        .find(|c| **c != name && c.eq_ignore_ascii_case(name))
    {
        return Some(format!("did you mean `{c}`?"));
    }
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

/// Edit distance over chars, a swap of two neighbours counting as one edit (`flaot` is one
/// edit from `float`): the optimal string alignment distance.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i - 2, i - 1 and i of the table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 0..a.len() {
        let mut cur = vec![i + 1; b.len() + 1];
        for j in 0..b.len() {
            let sub = prev[j] + usize::from(a[i] != b[j]);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                cur[j + 1] = cur[j + 1].min(before[j - 1] + 1);
            }
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            did_you_mean("idx", ["i", "idy", "n"]),
            Some("did you mean `idy`?".into())
        );
        assert_eq!(did_you_mean("threadIdx", ["n", "tile"]), None);
        // Another case of the same name wins over an equally close other name.
        assert_eq!(
            did_you_mean("N", ["a", "n"]),
            Some("did you mean `n`?".into())
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        // A swap of neighbours is one edit.
        assert_eq!(edit_distance("flaot", "float"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
