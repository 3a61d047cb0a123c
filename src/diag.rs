//! Diagnostic helpers shared by every phase: "did you mean" suggestions, and names shown as
//! the source writes them.

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

/// `text` with each name the front end made up (`b__S`) shown as the source writes it (`b::S`):
/// `names` pairs each made name with the written one. A made name counts only as a whole word.
pub fn as_written(text: &str, names: &[(String, String)]) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut names: Vec<&(String, String)> = names.iter().collect();
    // A nested made name holds its outer one (`a__Outer__Inner`, `a__Outer`): longest first.
    names.sort_by_key(|(made, _)| std::cmp::Reverse(made.len()));
    let mut out = text.to_string();
    for (made, written) in names {
        let mut shown = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(made.as_str()) {
            let end = at + made.len();
            let whole = !rest[..at].ends_with(word) && !rest[end..].starts_with(word);
            shown.push_str(&rest[..at]);
            shown.push_str(if whole { written } else { made });
            rest = &rest[end..];
        }
        shown.push_str(rest);
        out = shown;
    }
    out
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

    #[test]
    fn made_names_are_shown_as_written() {
        let names = [
            ("b__V".to_string(), "b::V".to_string()),
            ("b__V__Inner".to_string(), "b__V::Inner".to_string()),
        ];
        assert_eq!(
            as_written("`v` is a `b__V<int>`, not `ab__V` or `b__Vx`", &names),
            "`v` is a `b::V<int>`, not `ab__V` or `b__Vx`"
        );
        // The nested one's outer class is shown as written too.
        assert_eq!(as_written("b__V__Inner", &names), "b::V::Inner");
        assert_eq!(as_written("no names", &[]), "no names");
    }
}
