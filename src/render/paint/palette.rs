//! Palettes: the colour table and the boxes of colours that both the PNG encoder
//! ([`encode`](crate::render::encode)) and the indexed renderer
//! ([`indexed`](crate::render::paint::indexed)) build palettes with, so the two make the same
//! entries for the same colours.
//!
//! A palette entry stands for every colour within [`PALETTE_TOLERANCE`] of what it draws,
//! per channel: an *exact* box is drawn by its first colour, any other by its centre.

/// Largest per-channel difference a palette colour may have from the pixel it stands for.
pub const PALETTE_TOLERANCE: u8 = 3;

/// Palette entries for the colours numbered in `colors`, taken in `order` (most frequent
/// first): each joins the first box that takes it, or opens a box (`exact` or not) while
/// there is room. The palette (RGB triplets) and each colour's entry, by number; `None`
/// past 256 entries.
pub(crate) fn boxed(order: &[u16], colors: &[u32], exact: bool) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut boxes = Boxes::default();
    let mut index_of = vec![0u8; colors.len()];
    for &id in order {
        let [r, g, b, _] = colors[usize::from(id)].to_le_bytes();
        index_of[usize::from(id)] = boxes.entry([r, g, b], exact)?;
    }
    Some((boxes.palette(), index_of))
}

/// Colour → entry, open addressing over a power-of-two table (opaque colours are never 0,
/// which marks a free slot).
#[derive(Debug, Default, Clone)]
pub(crate) struct ColorMap {
    pub(crate) slots: Vec<(u32, u16)>,
    len: usize,
}

impl ColorMap {
    /// The same map in a table at most half full (to keep in a context).
    pub(crate) fn compact(&self) -> ColorMap {
        let mut map = ColorMap::default();
        map.reset((self.len * 2).next_power_of_two().max(16));
        for &(c, i) in self.slots.iter().filter(|(c, _)| *c != 0) {
            map.insert(c, i);
        }
        map
    }

    /// Insert, doubling the table when it is half full.
    pub(crate) fn insert_growing(&mut self, colour: u32, index: u16) {
        if self.slots.is_empty() {
            self.reset(16);
        }
        if !self.insert(colour, index) {
            let old = std::mem::take(&mut self.slots);
            self.reset(old.len() * 2);
            for (c, i) in old.into_iter().filter(|(c, _)| *c != 0) {
                self.insert(c, i);
            }
            self.insert(colour, index);
        }
    }

    /// Remove `colour` (re-inserting the entries after it in its probe run).
    pub(crate) fn remove(&mut self, colour: u32) {
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut slot = self.slot(colour);
        while self.slots[slot].0 != colour {
            if self.slots[slot].0 == 0 {
                return;
            }
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = (0, 0);
        self.len -= 1;
        let mut next = (slot + 1) & mask;
        while self.slots[next].0 != 0 {
            let (c, i) = std::mem::take(&mut self.slots[next]);
            self.len -= 1;
            self.insert(c, i);
            next = (next + 1) & mask;
        }
    }

    /// Empty, with `slots` slots.
    pub(crate) fn reset(&mut self, slots: usize) {
        self.slots.clear();
        self.slots.resize(slots, (0, 0));
        self.len = 0;
    }

    fn slot(&self, colour: u32) -> usize {
        ((u64::from(colour).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize)
            & (self.slots.len() - 1)
    }

    pub(crate) fn get(&self, colour: u32) -> Option<u16> {
        if self.slots.is_empty() {
            return None;
        }
        let mut slot = self.slot(colour);
        loop {
            let (key, index) = self.slots[slot];
            if key == colour {
                return Some(index);
            }
            if key == 0 {
                return None;
            }
            slot = (slot + 1) & (self.slots.len() - 1);
        }
    }

    /// `false` when the table is half full.
    pub(crate) fn insert(&mut self, colour: u32, index: u16) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            return false;
        }
        let mut slot = self.slot(colour);
        while self.slots[slot].0 != 0 && self.slots[slot].0 != colour {
            slot = (slot + 1) & (self.slots.len() - 1);
        }
        if self.slots[slot].0 == 0 {
            self.len += 1;
        }
        self.slots[slot] = (colour, index);
        true
    }
}

/// Boxes of colours, each drawn by one palette entry: an *exact* box is drawn by its
/// first colour and takes colours within tolerance of it; any other is drawn by its
/// centre and takes colours while it stays at most `2 × tolerance` wide per channel. Either
/// way every colour is drawn within tolerance. Stored channel by channel with the range of
/// values each box takes, and listed by the cubes of colour they reach, so a colour's
/// search looks at the few boxes listed under its cube.
#[derive(Debug, Clone)]
pub(crate) struct Boxes {
    lo: [[u8; 256]; 3],
    hi: [[u8; 256]; 3],
    /// The values box `i` takes on channel `k`: `takes[k][0][i]..=takes[k][1][i]`.
    takes: [[[u8; 256]; 2]; 3],
    pub(crate) exact: [bool; 256],
    /// Whether the box grew since it was kept from the context.
    pub(crate) grown: [bool; 256],
    pub(crate) entries: [u8; 256],
    pub(crate) len: usize,
    /// The boxes that may take a colour, by the colour's cell of a grid of
    /// [`GRID_SIDE`]-wide cubes, in the order they were added. What a box takes only
    /// narrows as it grows, so the cells it was listed under when added stay a superset.
    grid: Vec<Vec<u8>>,
    /// The cells of `grid` with boxes listed, to clear.
    listed: Vec<u16>,
    /// While recording (see [`Boxes::record`]): each box as it was before it grew, and
    /// the cells new boxes were listed under, in order, so they can be taken back.
    journal: Option<Journal>,
}

/// What [`Boxes::rollback`] undoes.
#[derive(Debug, Clone, Default)]
struct Journal {
    len: usize,
    grew: Vec<(usize, [u8; 3], [u8; 3], bool)>,
    cells: Vec<u16>,
}

/// The side of the cubes of colour [`Boxes`] lists its boxes under: wider than the widest
/// range a box takes (`2 × 2 × tolerance + 1`), so a box is listed under at most 8.
const GRID_SIDE: u8 = 32;

fn grid_cell(c: [u8; 3]) -> usize {
    let [r, g, b] = c.map(|v| usize::from(v / GRID_SIDE));
    (r * 8 + g) * 8 + b
}

impl Default for Boxes {
    fn default() -> Self {
        Boxes {
            lo: [[0; 256]; 3],
            hi: [[0; 256]; 3],
            takes: [[[0; 256]; 2]; 3],
            exact: [false; 256],
            grown: [false; 256],
            entries: [0; 256],
            len: 0,
            grid: vec![Vec::new(); 512],
            listed: Vec::new(),
            journal: None,
        }
    }
}

impl Boxes {
    /// Put `c` in the first box that takes it, or else in a new box (`exact` or not) drawn
    /// by the next entry; the entry. `None` past 256 boxes.
    pub(crate) fn entry(&mut self, c: [u8; 3], exact: bool) -> Option<u8> {
        self.join(c).or_else(|| {
            let entry = self.len as u8;
            self.push(c, c, exact, entry).map(|_| entry)
        })
    }

    /// Stop recording changes (see [`Boxes::record`]).
    pub(crate) fn stop_recording(&mut self) {
        self.journal = None;
    }

    /// Bytes held on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.grid.capacity() * std::mem::size_of::<Vec<u8>>()
            + self.grid.iter().map(Vec::capacity).sum::<usize>()
            + self.listed.capacity() * 2
    }

    /// The palette the boxes make: each box's colour (RGB triplets), box by box.
    pub(crate) fn palette(&self) -> Vec<u8> {
        (0..self.len).flat_map(|i| self.colour(i)).collect()
    }

    /// Start recording changes, to keep or take back as one.
    pub(crate) fn record(&mut self) {
        let mut journal = self.journal.take().unwrap_or_default();
        journal.len = self.len;
        journal.grew.clear();
        journal.cells.clear();
        self.journal = Some(journal);
    }

    /// Take back every change since [`Boxes::record`]: grown boxes shrink back, new ones go.
    pub(crate) fn rollback(&mut self) {
        let Some(mut journal) = self.journal.take() else {
            return;
        };
        for &(i, lo, hi, grown) in journal.grew.iter().rev() {
            for k in 0..3 {
                self.lo[k][i] = lo[k];
                self.hi[k][i] = hi[k];
            }
            self.grown[i] = grown;
            self.set_takes(i);
        }
        for &cell in journal.cells.iter().rev() {
            self.grid[usize::from(cell)].pop();
        }
        self.len = journal.len;
        journal.grew.clear();
        journal.cells.clear();
        self.journal = Some(journal);
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
        for &cell in &self.listed {
            self.grid[usize::from(cell)].clear();
        }
        self.listed.clear();
    }

    /// Whether box `i` takes `c`.
    fn takes(&self, i: usize, c: [u8; 3]) -> bool {
        (0..3).all(|k| (self.takes[k][0][i]..=self.takes[k][1][i]).contains(&c[k]))
    }

    /// Put `c` in the first box that takes it; that box's entry.
    pub(crate) fn join(&mut self, c: [u8; 3]) -> Option<u8> {
        let i = usize::from(
            *self.grid[grid_cell(c)]
                .iter()
                .find(|&&i| self.takes(usize::from(i), c))?,
        );
        if !self.exact[i] {
            let (lo, hi) = self.bounds(i);
            if let Some(journal) = &mut self.journal {
                journal.grew.push((i, lo, hi, self.grown[i]));
            }
            for (k, &ck) in c.iter().enumerate() {
                self.grown[i] |= ck < self.lo[k][i] || ck > self.hi[k][i];
                self.lo[k][i] = self.lo[k][i].min(ck);
                self.hi[k][i] = self.hi[k][i].max(ck);
            }
            self.set_takes(i);
        }
        Some(self.entries[i])
    }

    /// Work out what box `i` takes from its bounds: within tolerance of its colour if
    /// exact, else what keeps it at most `2 × tolerance` wide.
    fn set_takes(&mut self, i: usize) {
        let (t, span) = (PALETTE_TOLERANCE, 2 * PALETTE_TOLERANCE);
        for k in 0..3 {
            let (lo, hi) = (self.lo[k][i], self.hi[k][i]);
            let (min, max) = if self.exact[i] {
                (lo.saturating_sub(t), lo.saturating_add(t))
            } else {
                (hi.saturating_sub(span), lo.saturating_add(span))
            };
            self.takes[k][0][i] = min;
            self.takes[k][1][i] = max;
        }
    }

    /// Add a box `lo`–`hi` drawn by `entry`; `None` past 256 boxes.
    pub(crate) fn push(&mut self, lo: [u8; 3], hi: [u8; 3], exact: bool, entry: u8) -> Option<()> {
        let i = self.len;
        if i == 256 {
            return None;
        }
        for k in 0..3 {
            self.lo[k][i] = lo[k];
            self.hi[k][i] = hi[k];
        }
        (self.exact[i], self.grown[i], self.entries[i]) = (exact, false, entry);
        self.set_takes(i);
        self.len += 1;
        // List the box under every cell its range reaches.
        let [r, g, b] = [0, 1, 2]
            .map(|k| (self.takes[k][0][i] / GRID_SIDE)..=(self.takes[k][1][i] / GRID_SIDE));
        for r in r {
            for g in g.clone() {
                for b in b.clone() {
                    let cell = grid_cell([r, g, b].map(|v| v * GRID_SIDE));
                    if self.grid[cell].is_empty() {
                        self.listed.push(cell as u16);
                    }
                    self.grid[cell].push(i as u8);
                    if let Some(journal) = &mut self.journal {
                        journal.cells.push(cell as u16);
                    }
                }
            }
        }
        Some(())
    }

    /// The box of `i` (by position).
    pub(crate) fn bounds(&self, i: usize) -> ([u8; 3], [u8; 3]) {
        (
            [0, 1, 2].map(|k| self.lo[k][i]),
            [0, 1, 2].map(|k| self.hi[k][i]),
        )
    }

    /// The colour drawing box `i`: its first colour if exact, else its centre.
    pub(crate) fn colour(&self, i: usize) -> [u8; 3] {
        if self.exact[i] {
            return [0, 1, 2].map(|k| self.lo[k][i]);
        }
        [0, 1, 2].map(|k| ((u16::from(self.lo[k][i]) + u16::from(self.hi[k][i])) / 2) as u8)
    }
}
