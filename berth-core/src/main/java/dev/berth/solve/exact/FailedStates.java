package dev.berth.solve.exact;

/**
 * Search states whose whole subtree failed, remembered so that a search reaching the same state
 * again (another path to it, or the same path after a restart) fails at once.
 *
 * <p>A state is everything the subtree below a node depends on: the order in use (the item
 * order and, after a decomposition, the sub-problem whose ranks are in force), the unplaced
 * items with their floors, and the last placement's offset and rank. It is kept as a 128-bit
 * hash ({@link #key1}, {@link #key2}: two independent families of random item keys mixed with
 * the floors), so two different states are taken for one another with probability about
 * 2^-128 per pair. The table has a fixed size and overwrites old entries: forgetting a state
 * costs search time, never correctness, because only failures are stored.
 */
final class FailedStates {
    private static final int FIRST_BITS = 12;
    private final int maxBits;
    private long[] slots;
    private int mask;
    private long stored;

    /**
     * A table that starts with 2^12 entries (16 bytes each) and doubles while it is more than
     * half full, up to 2^maxBits entries; then new entries overwrite old ones.
     */
    FailedStates(int maxBits) {
        this.maxBits = Math.max(FIRST_BITS, maxBits);
        slots = new long[2 << FIRST_BITS];
        mask = (1 << FIRST_BITS) - 1;
    }

    boolean contains(long k1, long k2) {
        // the low bits of the key pick the slot: the cast keeps them on purpose
        int at = 2 * ((int) k1 & mask);
        return slots[at] == k1 && slots[at + 1] == (k2 | 1);
    }

    void add(long k1, long k2) {
        if (++stored > (mask + 1L) / 2 && Integer.bitCount(mask) < maxBits) {
            grow();
        }
        put(k1, k2 | 1); // never 0, the mark of an empty slot
    }

    private void put(long k1, long k2) {
        int at = 2 * ((int) k1 & mask);
        slots[at] = k1;
        slots[at + 1] = k2;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[2 * old.length];
        mask = 2 * mask + 1;
        for (int at = 0; at < old.length; at += 2) {
            if (old[at + 1] != 0) {
                put(old[at], old[at + 1]);
            }
        }
    }

    /** MurmurHash3's 64-bit finaliser: every input bit affects every output bit. */
    static long mix(long z) {
        z ^= z >>> 33;
        z *= 0xff51afd7ed558ccdL;
        z ^= z >>> 33;
        z *= 0xc4ceb9fe1a85ec53L;
        z ^= z >>> 33;
        return z;
    }
}
