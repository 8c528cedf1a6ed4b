//! Suffix array and LCP array of a sequence of `u32` symbols.
//!
//! The suffix array by prefix doubling (Manber & Myers): suffixes are ranked by their first
//! k symbols, then by their first 2k from the pairs (rank of the first k, rank of the next
//! k), one stable counting sort per round, until every rank is distinct: O(n log r) for a
//! longest repeat r, memory a few words per symbol. The LCP array by Kasai et al.'s
//! linear-time walk in text order. A shorter suffix sorts before a longer one it prefixes.

use crate::interrupt::Poll;

/// `sa[r]`: the start of the suffix of rank `r`; `rank[p]`: the rank of the suffix at `p`;
/// `lcp[r]`: the longest common prefix of the suffixes of ranks `r - 1` and `r` (0 at 0).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct SuffixArray {
    /// `sa[r]`: where the suffix of rank `r` starts.
    pub sa: Vec<u32>,
    /// `rank[p]`: the rank of the suffix starting at `p` (the inverse of `sa`).
    pub rank: Vec<u32>,
    /// `lcp[r]`: the longest common prefix of the suffixes of ranks `r - 1` and `r` (0 at 0).
    pub lcp: Vec<u32>,
}

/// The suffix array, ranks and LCP array of `text` (at most `u32::MAX - 1` symbols).
/// Returns None when `poll` asks to stop (the work is then abandoned).
pub fn suffix_array(text: &[u32], poll: &mut Poll) -> Option<SuffixArray> {
    let n = text.len();
    assert!(n < u32::MAX as usize, "text too long for u32 positions");
    if n == 0 {
        return Some(SuffixArray::default());
    }
    // Round 0: sort by the first symbol (dense ranks in symbol order); a counting sort when
    // the symbols are below n.
    let top = text.iter().copied().max().unwrap_or(0) as usize;
    let mut sa: Vec<u32> = (0..n as u32).collect();
    if top < n {
        let mut start = vec![0u32; top + 2];
        for &s in text {
            start[s as usize + 1] += 1;
        }
        for c in 1..start.len() {
            start[c] += start[c - 1];
        }
        for (p, &s) in text.iter().enumerate() {
            let slot = &mut start[s as usize];
            sa[*slot as usize] = p as u32;
            *slot += 1;
        }
    } else {
        sa.sort_unstable_by_key(|&p| (text[p as usize], p));
    }
    let mut rank = vec![0u32; n];
    let mut classes = 0u32;
    for r in 0..n {
        if r > 0 && text[sa[r] as usize] != text[sa[r - 1] as usize] {
            classes += 1;
        }
        rank[sa[r] as usize] = classes;
    }
    classes += 1;
    let mut tmp = vec![0u32; n];
    let mut count: Vec<u32> = Vec::new();
    let mut next_rank = vec![0u32; n];
    let mut k = 1usize;
    while (classes as usize) < n {
        if poll.stop() {
            return None;
        }
        // Order by the second key: suffixes without a second half first (they are distinct
        // already), then the others in the order of their second half.
        let mut w = 0;
        for p in n - k.min(n)..n {
            tmp[w] = p as u32;
            w += 1;
        }
        for &p in &sa {
            if p as usize >= k {
                tmp[w] = p - k as u32;
                w += 1;
            }
        }
        // Stable counting sort by the first key.
        count.clear();
        count.resize(classes as usize + 1, 0);
        for &p in &tmp {
            count[rank[p as usize] as usize + 1] += 1;
        }
        for c in 1..count.len() {
            count[c] += count[c - 1];
        }
        for &p in &tmp {
            let slot = &mut count[rank[p as usize] as usize];
            sa[*slot as usize] = p;
            *slot += 1;
        }
        // New ranks from (first, second) pairs.
        let second = |p: usize| -> u32 {
            if p + k < n {
                rank[p + k] + 1
            } else {
                0
            }
        };
        let mut c = 0u32;
        next_rank[sa[0] as usize] = 0;
        for r in 1..n {
            let (a, b) = (sa[r - 1] as usize, sa[r] as usize);
            if rank[a] != rank[b] || second(a) != second(b) {
                c += 1;
            }
            next_rank[b] = c;
        }
        std::mem::swap(&mut rank, &mut next_rank);
        classes = c + 1;
        k *= 2;
    }
    drop(tmp);
    drop(next_rank);
    // Kasai: in text order, the LCP with the previous suffix drops by at most one per step.
    let mut lcp = vec![0u32; n];
    let mut h = 0usize;
    for p in 0..n {
        let r = rank[p] as usize;
        if r == 0 {
            h = 0;
            continue;
        }
        let q = sa[r - 1] as usize;
        while p + h < n && q + h < n && text[p + h] == text[q + h] {
            h += 1;
        }
        lcp[r] = h as u32;
        h = h.saturating_sub(1);
    }
    Some(SuffixArray { sa, rank, lcp })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(text: &[u32]) -> SuffixArray {
        let n = text.len();
        let mut sa: Vec<u32> = (0..n as u32).collect();
        sa.sort_by(|&a, &b| text[a as usize..].cmp(&text[b as usize..]));
        let mut rank = vec![0u32; n];
        for (r, &p) in sa.iter().enumerate() {
            rank[p as usize] = r as u32;
        }
        let lcp = (0..n)
            .map(|r| {
                if r == 0 {
                    return 0;
                }
                let (a, b) = (&text[sa[r - 1] as usize..], &text[sa[r] as usize..]);
                a.iter().zip(b).take_while(|(p, q)| p == q).count() as u32
            })
            .collect();
        SuffixArray { sa, rank, lcp }
    }

    proptest::proptest! {
        #[test]
        fn equals_sorting_the_suffixes(
            text in proptest::collection::vec(0u32..4, 0..200),
        ) {
            let got = suffix_array(&text, &mut Poll::new(1)).unwrap();
            proptest::prop_assert_eq!(got, naive(&text));
        }

        #[test]
        fn equals_sorting_the_suffixes_of_repeats(
            unit in proptest::collection::vec(0u32..3, 1..6),
            times in 1usize..60,
            tail in proptest::collection::vec(0u32..3, 0..4),
        ) {
            let mut text: Vec<u32> = unit.iter().copied().cycle().take(unit.len() * times).collect();
            text.extend(tail);
            let got = suffix_array(&text, &mut Poll::new(1)).unwrap();
            proptest::prop_assert_eq!(got, naive(&text));
        }
    }

    #[test]
    fn large_symbols_and_one_symbol() {
        let text = [u32::MAX, 0, u32::MAX, 5];
        assert_eq!(
            suffix_array(&text, &mut Poll::new(1)).unwrap(),
            naive(&text)
        );
        assert_eq!(suffix_array(&[7], &mut Poll::new(1)).unwrap(), naive(&[7]));
        let a = vec![3u32; 1000];
        assert_eq!(suffix_array(&a, &mut Poll::new(1)).unwrap(), naive(&a));
    }
}
