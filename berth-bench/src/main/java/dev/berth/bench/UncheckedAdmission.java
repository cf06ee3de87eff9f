package dev.berth.bench;

import dev.berth.arith.Checked;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;

import java.util.OptionalLong;

/**
 * BENCHMARK ONLY. {@link dev.berth.admit.Admission#admit} step for step (effective alignment,
 * reserved size, padding, the format's room above the base, the end convention, the usable
 * capacity, a placement record), with plain {@code +}, {@code *}, {@code /} and {@code %} where
 * the real one goes through {@link dev.berth.arith.Checked}: no overflow checks, no typed
 * failures (a rejected request gives null). The baseline for {@link CheckedArithmeticBenchmark};
 * never used to place bytes.
 */
final class UncheckedAdmission {
    private UncheckedAdmission() {
    }

    /** What {@code Placement} holds. */
    record Admitted(String buffer, Space space, long offset, long requested, long reserved, long alignment) {
        long end() {
            return offset + reserved;
        }
    }

    static Admitted admit(Space space, String buffer, long candidate, long requested, long alignment) {
        if (candidate < 0 || requested < 0 || alignment <= 0) {
            return null;
        }
        // Checked.gcd has no overflow check to leave out: the same loop as the real one runs
        long g = Checked.gcd(space.alignment(), alignment);
        long eff = space.alignment() / g * alignment;
        long rem = requested % eff;
        long reserved = rem == 0 ? requested : requested + (eff - rem);
        AddressFormat fmt = space.format();
        long room = fmt.maxAddress() - space.base();
        long r = candidate % eff;
        long pad = r == 0 ? 0 : eff - r;
        if (room < 0 || candidate + pad > room) {
            return null;
        }
        long start = candidate + pad;
        boolean endOk = fmt.end() == EndConvention.EXCLUSIVE ? start + reserved <= room
                : reserved == 0 || start + reserved - 1 <= room;
        if (!endOk) {
            return null;
        }
        OptionalLong usable = space.usableCapacity();
        if (usable.isPresent() && start + reserved > usable.getAsLong()) {
            return null;
        }
        return new Admitted(buffer, space, start, requested, reserved, eff);
    }
}
