package dev.berth.bench;

/**
 * BENCHMARK ONLY. The admission check's arithmetic for an ordinary buffer in a local space of a
 * format with an exclusive end, with plain {@code +}, {@code *} and {@code %}: no overflow
 * checks, no typed failures (a rejected request gives -1). The baseline for
 * {@link CheckedArithmeticBenchmark}; never used to place bytes.
 */
final class UncheckedAdmission {
    private UncheckedAdmission() {
    }

    static long admit(long spaceAlignment, long maxAddress, long capacity, long candidate, long requested, long alignment) {
        long eff = spaceAlignment / gcd(spaceAlignment, alignment) * alignment;
        long reserved = (requested + eff - 1) / eff * eff;
        long rem = candidate % eff;
        long start = rem == 0 ? candidate : candidate + (eff - rem);
        if (start + reserved > maxAddress || start + reserved > capacity) {
            return -1;
        }
        return start;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
