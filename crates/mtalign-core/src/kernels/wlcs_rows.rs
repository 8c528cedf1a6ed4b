//! One row of a weighted-LCS table (Lin & Och 2004, and ROUGE-1.5.5's variant) computed by
//! segments, for long texts.
//!
//! In row i a non-matching cell takes max(up, left), a matching one diag + gain(k) with k
//! the run of matches ending on the diagonal. So a row only falls (c(i, j) < c(i, j−1)) at
//! its matching cells, and between two of the previous row's falls that row is
//! non-decreasing. On a segment of columns with no match in row i and no fall of row i−1
//! inside it, the serial chain `c(i,j) = max(c(i−1,j), c(i,j−1))` unrolls to
//! `max(c(i−1,j), carry)` with `carry` the cell before the segment: a loop without a
//! dependency from cell to cell, which the compiler vectorises. Matches, run lengths and
//! falls are kept as sorted column lists (sparse), so a row costs its length in vector work
//! plus its matches and the previous row's falls in scalar work. A maximum of two floats
//! is exact, so every cell equals the serial programme's bit for bit.

/// The columns (1-based, ascending) of each symbol in the column text.
#[derive(Debug, Default)]
pub struct Columns {
    slot: Vec<u32>,
    symbols: Vec<u32>,
    start: Vec<u32>,
    columns: Vec<u32>,
    /// The text indexed (a text scored against several in a row is indexed once).
    text: Vec<u32>,
    ready: bool,
}

const NONE: u32 = u32::MAX;

impl Columns {
    /// Indexes `y` (the text along the columns).
    pub fn prepare(&mut self, y: &[u32]) {
        if self.ready && self.text == y {
            return;
        }
        self.ready = true;
        self.text.clear();
        self.text.extend_from_slice(y);
        for &s in &self.symbols {
            self.slot[s as usize] = NONE;
        }
        self.symbols.clear();
        self.start.clear();
        if let Some(&max) = y.iter().max() {
            if max as usize >= self.slot.len() {
                self.slot.resize(max as usize + 1, NONE);
            }
        }
        for &s in y {
            let k = match self.slot[s as usize] {
                NONE => {
                    self.slot[s as usize] = self.symbols.len() as u32;
                    self.symbols.push(s);
                    self.start.push(0);
                    self.symbols.len() - 1
                }
                k => k as usize,
            };
            self.start[k] += 1;
        }
        let mut total = 0;
        for c in self.start.iter_mut() {
            let n = *c;
            *c = total;
            total += n;
        }
        self.start.push(total);
        self.columns.clear();
        self.columns.resize(y.len(), 0);
        let mut fill = self.start[..self.symbols.len()].to_vec();
        for (j, &s) in y.iter().enumerate() {
            let k = self.slot[s as usize] as usize;
            self.columns[fill[k] as usize] = j as u32 + 1;
            fill[k] += 1;
        }
    }

    /// The columns holding `symbol`, ascending.
    #[inline]
    pub fn of(&self, symbol: u32) -> &[u32] {
        match self.slot.get(symbol as usize) {
            Some(&k) if k != NONE => {
                &self.columns[self.start[k as usize] as usize..self.start[k as usize + 1] as usize]
            }
            _ => &[],
        }
    }
}

/// What a row leaves for the next: its matching columns with their run lengths, and the
/// columns where it falls.
#[derive(Debug, Default, Clone)]
pub struct RowMarks {
    /// The columns where this row matches.
    pub matches: Vec<u32>,
    /// `runs[i]`: the length of the run of consecutive matches ending at `matches[i]`.
    pub runs: Vec<u32>,
    /// The columns `j` where this row falls: `c(i, j) < c(i, j-1)` (see the module docs).
    pub falls: Vec<u32>,
}

impl RowMarks {
    /// Forgets the marks, keeping the memory.
    pub fn clear(&mut self) {
        self.matches.clear();
        self.runs.clear();
        self.falls.clear();
    }

    /// The marks of a whole row read back from its cells and run lengths (a checkpoint).
    pub fn from_row(&mut self, c: &[f64], k: &[u32], cols: usize) {
        self.clear();
        for j in 1..=cols {
            if k[j] > 0 {
                self.matches.push(j as u32);
                self.runs.push(k[j]);
            }
            if c[j] < c[j - 1] {
                self.falls.push(j as u32);
            }
        }
    }
}

/// Row i's cells 0..=`cols` into `cur` from row i−1 in `prev` (with its marks `prev_marks`),
/// `matches` the columns (≤ `cols`, ascending) where row i's symbol occurs; a matching
/// cell is `value(diagonal cell, run length ending there)`. Row i's marks go to `marks`.
///
/// `left` is (row i's cell in column 0, row i−1's run length in column 0): `(0.0, 0)` for
/// a whole row; for a block of columns whose column 0 is a cell of the whole table, that
/// cell, so a match in column 1 reads its diagonal run from there (column 0 of `prev` then
/// holds row i−1's cell).
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn row(
    prev: &[f64],
    cur: &mut [f64],
    cols: usize,
    matches: &[u32],
    prev_marks: &RowMarks,
    marks: &mut RowMarks,
    value: impl Fn(f64, u32) -> f64,
    left: (f64, u32),
) {
    marks.clear();
    let prev = &prev[..=cols];
    let cur = &mut cur[..=cols];
    cur[0] = left.0;
    let mut carry = left.0;
    let mut c = 1usize;
    let (mut mi, mut fi, mut pi) = (0usize, 0usize, 0usize);
    let falls = &prev_marks.falls;
    loop {
        let next_match = matches.get(mi).map_or(cols + 1, |&x| x as usize);
        // A fall at c itself may open the segment; later ones end it.
        while fi < falls.len() && falls[fi] as usize <= c {
            fi += 1;
        }
        let next_fall = falls.get(fi).map_or(cols + 1, |&x| x as usize);
        let end = next_match.min(next_fall).min(cols + 1);
        if end > c {
            for (out, &p) in cur[c..end].iter_mut().zip(&prev[c..end]) {
                *out = if p > carry { p } else { carry };
            }
            carry = cur[end - 1];
        }
        if end > cols {
            break;
        }
        if end == next_match {
            // Run length ending at the diagonal cell (i−1, end−1).
            let diag = end - 1;
            while pi < prev_marks.matches.len() && (prev_marks.matches[pi] as usize) < diag {
                pi += 1;
            }
            let k = match prev_marks.matches.get(pi) {
                Some(&x) if x as usize == diag => prev_marks.runs[pi],
                _ if diag == 0 => left.1,
                _ => 0,
            };
            let v = value(prev[diag], k);
            cur[end] = v;
            marks.matches.push(end as u32);
            marks.runs.push(k + 1);
            if v < carry {
                marks.falls.push(end as u32);
            }
            carry = v;
            c = end + 1;
            mi += 1;
        } else {
            c = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The serial programme: cells and run lengths of every row.
    fn table(x: &[u32], y: &[u32], gain: &[f64]) -> Vec<Vec<(f64, u32)>> {
        let n = y.len();
        let mut rows = vec![vec![(0.0, 0u32); n + 1]];
        for &xi in x {
            let prev = rows.last().unwrap().clone();
            let mut cur = vec![(0.0, 0u32); n + 1];
            for j in 0..n {
                cur[j + 1] = if xi == y[j] {
                    let k = prev[j].1;
                    (prev[j].0 + gain[k as usize], k + 1)
                } else {
                    let (up, left) = (prev[j + 1].0, cur[j].0);
                    (if up > left { up } else { left }, 0)
                };
            }
            rows.push(cur);
        }
        rows
    }

    proptest! {
        #[test]
        fn rows_by_segments_equal_the_serial_rows(
            x in prop::collection::vec(0u32..5, 0..60),
            y in prop::collection::vec(0u32..5, 0..60),
            weight in 0.5f64..3.0,
        ) {
            let gain: Vec<f64> = (0..70)
                .map(|k| (k as f64 + 1.0).powf(weight) - (k as f64).powf(weight))
                .collect();
            let want = table(&x, &y, &gain);
            let n = y.len();
            let mut cols = Columns::default();
            cols.prepare(&y);
            let (mut prev, mut cur) = (vec![0.0; n + 1], vec![0.0; n + 1]);
            let (mut pm, mut cm) = (RowMarks::default(), RowMarks::default());
            for (i, &xi) in x.iter().enumerate() {
                let gained = |d: f64, k: u32| d + gain[k as usize];
                row(&prev, &mut cur, n, cols.of(xi), &pm, &mut cm, gained, (0.0, 0));
                let got: Vec<f64> = cur.clone();
                let w: Vec<f64> = want[i + 1].iter().map(|c| c.0).collect();
                prop_assert_eq!(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                                w.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
                let mut k = vec![0u32; n + 1];
                for (&c, &r) in cm.matches.iter().zip(&cm.runs) {
                    k[c as usize] = r;
                }
                let wk: Vec<u32> = want[i + 1].iter().map(|c| c.1).collect();
                prop_assert_eq!(&k, &wk);
                let mut again = RowMarks::default();
                again.from_row(&cur, &k, n);
                prop_assert_eq!(&again.falls, &cm.falls);
                std::mem::swap(&mut prev, &mut cur);
                std::mem::swap(&mut pm, &mut cm);
            }
        }
    }
}
