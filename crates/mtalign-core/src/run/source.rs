//! Where a batch's texts come from: a [`TextSource`] that a binding implements over its
//! caller's objects (Python lists, read under the GIL), read once, in order, by [`collect`]
//! into a [`Collected`] batch of borrowed texts. Nothing is hashed, numbered or copied while
//! the source is read: that is the part of a batch only one thread can do, so it does as
//! little as possible; everything else runs on the pool ([`crate::run`]).

use crate::text::refs::RefSets;

/// A text batch as its caller holds it: hypotheses, and per reference item (one per pair in
/// an aligned batch, one per column in a matrix) one or more reference texts.
///
/// The texts must stay valid and unchanged for `'a` (Python strings are immutable and the
/// binding holds their objects), so the batch can be scored after the source is released.
pub trait TextSource<'a> {
    /// Why an item cannot be read (it names the item: `hyps[3]`, `refs[2][1]`).
    type Error;
    /// The number of hypotheses.
    fn hyps(&self) -> usize;
    /// The text of hypothesis `i`.
    fn hyp(&self, i: usize) -> Result<&'a str, Self::Error>;
    /// The number of reference items.
    fn ref_items(&self) -> usize;
    /// The number of references of item `i` (1 for a bare text; never 0).
    fn ref_count(&self, i: usize) -> usize;
    /// Reference `j` of item `i`: its text, and a key naming the object that holds it
    /// (equal keys: the same text, read once; the binding gives the object's address).
    fn reference(&self, i: usize, j: usize) -> Result<(&'a str, usize), Self::Error>;
}

/// A text batch read from its [`TextSource`]: every text borrowed, in the source's order.
#[derive(Debug, Clone, Default)]
pub struct Collected<'a> {
    /// The hypotheses' texts.
    pub hyps: Vec<&'a str>,
    /// Every reference text, item after item (`refs[0][0], refs[0][1], refs[1][0], ...`).
    pub refs: Vec<&'a str>,
    /// The source's key of each of [`Collected::refs`] (equal keys: the same text).
    pub keys: Vec<usize>,
    /// Where each of [`Collected::refs`] is: (item, position in the item).
    pub origin: Vec<(usize, usize)>,
    /// Per reference item, its references (indices into [`Collected::refs`]).
    pub ref_sets: RefSets,
    /// Bytes of every text read (a text held twice counted twice).
    pub bytes: usize,
}

impl<'a> Collected<'a> {
    /// No text yet, with room for `hyps` hypotheses and `refs` references.
    pub fn with_capacity(hyps: usize, refs: usize) -> Self {
        Self {
            hyps: Vec::with_capacity(hyps),
            refs: Vec::with_capacity(refs),
            keys: Vec::with_capacity(refs),
            origin: Vec::with_capacity(refs),
            ref_sets: RefSets::with_capacity(refs, refs),
            bytes: 0,
        }
    }

    /// A batch of `hyps` and of `items` reference items, whose texts `refs` (with their
    /// `keys`) are item after item: one text an item, but for the items of `multi` ((item,
    /// its number of texts), ascending).
    pub fn from_texts(
        hyps: Vec<&'a str>,
        items: usize,
        refs: Vec<&'a str>,
        keys: Vec<usize>,
        multi: &[(usize, usize)],
    ) -> Self {
        let (origin, ref_sets) = if multi.is_empty() {
            // The usual batch, one reference a hypothesis: reference i is item i's.
            (
                (0..items).map(|i| (i, 0)).collect(),
                RefSets::singletons(items),
            )
        } else {
            let mut origin = Vec::with_capacity(refs.len());
            let mut ref_sets = RefSets::with_capacity(items, refs.len());
            let mut multi = multi.iter().peekable();
            for i in 0..items {
                let count = multi
                    .next_if(|&&(item, _)| item == i)
                    .map_or(1, |&(_, c)| c);
                let start = origin.len() as u32;
                origin.extend((0..count).map(|j| (i, j)));
                ref_sets.push(start..origin.len() as u32);
            }
            (origin, ref_sets)
        };
        debug_assert_eq!(origin.len(), refs.len());
        let bytes = hyps.iter().map(|t| t.len()).sum::<usize>()
            + refs.iter().map(|t| t.len()).sum::<usize>();
        Self {
            hyps,
            refs,
            keys,
            origin,
            ref_sets,
            bytes,
        }
    }

    /// The number of hypotheses.
    pub fn len(&self) -> usize {
        self.hyps.len()
    }

    /// Whether there is no hypothesis.
    pub fn is_empty(&self) -> bool {
        self.hyps.is_empty()
    }

    /// Appends the next hypothesis's text.
    pub fn push_hyp(&mut self, text: &'a str) {
        self.bytes += text.len();
        self.hyps.push(text);
    }

    /// Appends the next reference item: its texts, each with its source's key.
    pub fn push_ref_item(&mut self, refs: impl IntoIterator<Item = (&'a str, usize)>) {
        let item = self.ref_sets.len();
        let start = self.refs.len();
        for (j, (text, key)) in refs.into_iter().enumerate() {
            self.bytes += text.len();
            self.refs.push(text);
            self.keys.push(key);
            self.origin.push((item, j));
        }
        self.ref_sets.push(start as u32..self.refs.len() as u32);
    }
}

/// Reads every text of `source` once: the hypotheses in order, then the references item by
/// item, so the first bad item in that order is the one refused.
pub fn collect<'a, S: TextSource<'a>>(source: &S) -> Result<Collected<'a>, S::Error> {
    let n = source.hyps();
    let m = source.ref_items();
    let mut out = Collected::with_capacity(n, m);
    for i in 0..n {
        out.push_hyp(source.hyp(i)?);
    }
    let mut item = Vec::new();
    for i in 0..m {
        item.clear();
        for j in 0..source.ref_count(i) {
            item.push(source.reference(i, j)?);
        }
        out.push_ref_item(item.drain(..));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts in vectors; `None` is an item that cannot be read.
    struct Lists {
        hyps: Vec<Option<&'static str>>,
        refs: Vec<Vec<Option<&'static str>>>,
    }

    impl TextSource<'static> for Lists {
        type Error = String;
        fn hyps(&self) -> usize {
            self.hyps.len()
        }
        fn hyp(&self, i: usize) -> Result<&'static str, String> {
            self.hyps[i].ok_or(format!("hyps[{i}]"))
        }
        fn ref_items(&self) -> usize {
            self.refs.len()
        }
        fn ref_count(&self, i: usize) -> usize {
            self.refs[i].len()
        }
        fn reference(&self, i: usize, j: usize) -> Result<(&'static str, usize), String> {
            let text = self.refs[i][j].ok_or(format!("refs[{i}][{j}]"))?;
            Ok((text, text.as_ptr() as usize))
        }
    }

    #[test]
    fn collects_in_order_and_refuses_the_first_bad_item() {
        let lists = Lists {
            hyps: vec![Some("a b"), Some("c")],
            refs: vec![vec![Some("x")], vec![Some("y z"), Some("x")]],
        };
        let c = collect(&lists).unwrap();
        assert_eq!(c.hyps, ["a b", "c"]);
        assert_eq!(c.refs, ["x", "y z", "x"]);
        assert_eq!(c.origin, [(0, 0), (1, 0), (1, 1)]);
        assert_eq!(
            (c.ref_sets.get(0), c.ref_sets.get(1)),
            (&[0][..], &[1, 2][..])
        );
        assert_eq!(c.keys[0], c.keys[2]);
        assert_eq!(c.bytes, 3 + 1 + 1 + 3 + 1);
        let bad = Lists {
            hyps: vec![Some("a"), None, None],
            refs: vec![vec![None]],
        };
        assert_eq!(collect(&bad).unwrap_err(), "hyps[1]");
        let bad_ref = Lists {
            hyps: vec![Some("a")],
            refs: vec![vec![Some("b"), None]],
        };
        assert_eq!(collect(&bad_ref).unwrap_err(), "refs[0][1]");
    }

    #[test]
    fn a_batch_from_its_texts_is_the_batch_collected() {
        let lists = Lists {
            hyps: vec![Some("a b"), Some("c"), Some(""), Some("d")],
            refs: vec![
                vec![Some("x")],
                vec![Some("y z"), Some("x"), Some("w")],
                vec![Some("v")],
                vec![Some("u"), Some("t")],
            ],
        };
        let c = collect(&lists).unwrap();
        let built = Collected::from_texts(
            c.hyps.clone(),
            4,
            c.refs.clone(),
            c.keys.clone(),
            &[(1, 3), (3, 2)],
        );
        assert_eq!(format!("{built:?}"), format!("{c:?}"));
        let single = Lists {
            hyps: vec![Some("a"), Some("b")],
            refs: vec![vec![Some("x")], vec![Some("y z")]],
        };
        let c = collect(&single).unwrap();
        let built = Collected::from_texts(c.hyps.clone(), 2, c.refs.clone(), c.keys.clone(), &[]);
        assert_eq!(format!("{built:?}"), format!("{c:?}"));
        let empty = Collected::from_texts(vec![], 0, vec![], vec![], &[]);
        assert_eq!(format!("{empty:?}"), format!("{:?}", Collected::default()));
    }
}
