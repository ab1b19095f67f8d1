//! A small deterministic generator shared by the oracle tests, so a corpus is the same on
//! every run.
#![allow(dead_code)]

/// A small deterministic generator (xorshift64*), so the corpus is the same on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A string of `0..=max` characters drawn from `alphabet`.
    pub fn string(&mut self, alphabet: &[&str], max: usize) -> String {
        let len = self.below(max + 1);
        (0..len).map(|_| *self.pick(alphabet)).collect()
    }
}
