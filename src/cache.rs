//! Caches bounded by bytes: everything the renderer keeps between requests lives in one.
//!
//! Knows nothing of what it stores. A value says what it holds through [`Weight`]; a
//! [`ByteCache`] weighs every entry as its key, its value and [`ENTRY_OVERHEAD`], evicts
//! (moka's TinyLFU) past its bound, and reports its [`Usage`] for `/metrics`. A test
//! (`tests/cache_weights.rs`) checks that the weights match what is allocated.

use std::hash::Hash;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes an entry costs beyond its key's and value's own: moka's node and its bookkeeping
/// (access-order and write-order deques, the frequency sketch's share), the hash table's
/// slot, an `Arc`'s counts. Checked by `tests/cache_weights.rs`.
pub const ENTRY_OVERHEAD: usize = 240;

/// How long an entry nobody asks for is kept. What a flood of one-off sizes leaves behind
/// (sprites, contexts) goes within this after it stops; what is in use stays.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // no clock there
pub const IDLE: std::time::Duration = std::time::Duration::from_secs(20);

/// What a cache entry holds on the heap, in bytes (allocations of its own, not `size_of`).
pub trait Weight {
    /// Bytes held.
    fn weight(&self) -> usize;
}

impl Weight for Vec<u8> {
    fn weight(&self) -> usize {
        self.capacity()
    }
}

impl Weight for str {
    fn weight(&self) -> usize {
        self.len()
    }
}

impl<T: Weight + ?Sized> Weight for Arc<T> {
    fn weight(&self) -> usize {
        T::weight(self) + std::mem::size_of_val::<T>(self) + 16
    }
}

impl<T: Weight> Weight for Option<T> {
    fn weight(&self) -> usize {
        self.as_ref().map_or(0, T::weight)
    }
}

/// How full a cache is, for `/metrics` and [`crate::Renderer::cache_usage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// What the cache holds (`sprites`, `contexts`…), the metric's label.
    pub name: &'static str,
    /// Bytes held now (the entries' weights, after pending evictions).
    pub bytes: u64,
    /// The most it holds.
    pub bound: u64,
    /// Entries held.
    pub entries: u64,
}

/// A named cache of at most `bound` bytes.
#[derive(Clone)]
pub struct ByteCache<K, V> {
    name: &'static str,
    bound: u64,
    inner: Inner<K, V>,
    /// Weight inserted since the last eviction run.
    inserted: Arc<AtomicU64>,
}

impl<K, V> std::fmt::Debug for ByteCache<K, V>
where
    K: Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByteCache")
            .field("name", &self.name)
            .field("entries", &self.inner.entry_count())
            .field("bytes", &self.inner.weighted_size())
            .field("bound", &self.bound)
            .finish()
    }
}

/// The store under a [`ByteCache`]: moka's, or on wasm32 (where moka's clock panics) a plain
/// map ([`plain`]). Either gives the renderer the same values: only what is kept differs.
#[cfg(not(target_arch = "wasm32"))]
type Inner<K, V> = moka::sync::Cache<K, V>;
#[cfg(target_arch = "wasm32")]
type Inner<K, V> = plain::Cache<K, V>;

/// The weight of one entry, as moka wants it.
pub fn entry_weight(key: usize, value: usize) -> u32 {
    u32::try_from(key + value + ENTRY_OVERHEAD).unwrap_or(u32::MAX)
}

impl<K, V> ByteCache<K, V>
where
    K: Weight + Hash + Eq + Send + Sync + 'static,
    V: Weight + Clone + Send + Sync + 'static,
{
    /// An empty cache called `name` holding at most about `bound` bytes, dropping entries
    /// not asked for in [`IDLE`].
    pub fn new(name: &'static str, bound: u64) -> Self {
        ByteCache {
            name,
            bound,
            inserted: Arc::new(AtomicU64::new(0)),
            inner: Self::inner(bound),
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn inner(bound: u64) -> Inner<K, V> {
        moka::sync::Cache::builder()
            .max_capacity(bound)
            .weigher(|k: &K, v: &V| entry_weight(k.weight(), v.weight()))
            .time_to_idle(IDLE)
            .build()
    }

    #[cfg(target_arch = "wasm32")]
    fn inner(bound: u64) -> Inner<K, V> {
        plain::Cache::new(bound, |k: &K, v: &V| entry_weight(k.weight(), v.weight()))
    }

    /// The value of `key`, made by `make` and kept if it was not there. Concurrent calls for
    /// one key make it once.
    ///
    /// Once the entries inserted since the last eviction weigh an eighth of the bound, the
    /// cache evicts down to its bound before returning: moka otherwise evicts in batches,
    /// later, and a burst of large new entries (contexts of 5 MB at 2048 px) held several
    /// times the bound meanwhile (peak resident size 210 MiB against 110 MiB, scripts/bench/cold.sh).
    pub fn get_with(&self, key: K, make: impl FnOnce() -> V) -> V {
        let mut made = 0;
        let value = self.inner.get_with(key, || {
            let value = make();
            made = u64::from(entry_weight(0, value.weight()));
            value
        });
        if made > 0 {
            let since = self.inserted.fetch_add(made, Ordering::Relaxed) + made;
            if since >= self.bound / 8 {
                self.inserted.store(0, Ordering::Relaxed);
                self.inner.run_pending_tasks();
            }
        }
        value
    }

    /// The value of `key` if it is held (counted as asked for); nothing is made.
    pub fn get(&self, key: &K) -> Option<V> {
        self.inner.get(key)
    }

    /// Whether `key` is held now (neither made nor counted as asked for).
    pub fn contains(&self, key: &K) -> bool {
        self.inner.contains_key(key)
    }

    /// How full it is now (after pending evictions).
    pub fn usage(&self) -> Usage {
        self.inner.run_pending_tasks();
        Usage {
            name: self.name,
            bytes: self.inner.weighted_size(),
            bound: self.bound,
            entries: self.inner.entry_count(),
        }
    }
}

/// The cache of wasm32 (one thread, no clock): a map that is emptied whenever an insert
/// would take it past its bound. Cruder than moka's eviction, and enough for one page's or
/// one build's diagrams.
#[cfg(target_arch = "wasm32")]
mod plain {
    use std::collections::HashMap;
    use std::hash::Hash;
    use std::sync::{Arc, Mutex, PoisonError};

    type Weigher<K, V> = fn(&K, &V) -> u32;

    struct Held<K, V> {
        map: HashMap<K, V>,
        bytes: u64,
    }

    /// A bounded map with the few calls of moka's `sync::Cache` that `ByteCache` makes.
    pub struct Cache<K, V> {
        held: Arc<Mutex<Held<K, V>>>,
        bound: u64,
        weigher: Weigher<K, V>,
    }

    impl<K, V> Clone for Cache<K, V> {
        fn clone(&self) -> Self {
            Cache {
                held: self.held.clone(),
                bound: self.bound,
                weigher: self.weigher,
            }
        }
    }

    impl<K: Hash + Eq, V: Clone> Cache<K, V> {
        pub fn new(bound: u64, weigher: Weigher<K, V>) -> Self {
            let held = Held {
                map: HashMap::new(),
                bytes: 0,
            };
            Cache {
                held: Arc::new(Mutex::new(held)),
                bound,
                weigher,
            }
        }

        fn lock(&self) -> std::sync::MutexGuard<'_, Held<K, V>> {
            self.held.lock().unwrap_or_else(PoisonError::into_inner)
        }

        /// The value of `key`, or `make`'s, kept (the lock is not held while it is made).
        pub fn get_with(&self, key: K, make: impl FnOnce() -> V) -> V {
            if let Some(value) = self.lock().map.get(&key) {
                return value.clone();
            }
            let value = make();
            let weight = u64::from((self.weigher)(&key, &value));
            let mut held = self.lock();
            if held.bytes + weight > self.bound {
                held.map.clear();
                held.bytes = 0;
            }
            if weight <= self.bound && !held.map.contains_key(&key) {
                held.bytes += weight;
                held.map.insert(key, value.clone());
            }
            value
        }

        pub fn get(&self, key: &K) -> Option<V> {
            self.lock().map.get(key).cloned()
        }

        pub fn run_pending_tasks(&self) {}

        pub fn contains_key(&self, key: &K) -> bool {
            self.lock().map.contains_key(key)
        }

        pub fn weighted_size(&self) -> u64 {
            self.lock().bytes
        }

        pub fn entry_count(&self) -> u64 {
            self.lock().map.len() as u64
        }
    }
}
