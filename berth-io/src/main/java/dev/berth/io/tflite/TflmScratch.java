package dev.berth.io.tflite;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;

import java.util.List;

/**
 * A scratch buffer a TFLM kernel requests in its {@code Prepare} ({@code RequestScratchBufferInArena}):
 * {@code size} bytes live from step {@code first} to step {@code last} (TFLM's steps, inclusive; the
 * step of the operator that asks, or the range of a control-flow operator and the subgraphs it runs).
 * Sizes are not in a {@code .tflite} file; TFLM places these buffers online in its head, around the
 * offline plan's tensors. Read with {@code --tflm-scratch FILE} (contract §5.1).
 */
public record TflmScratch(long size, int first, int last) {
    /** The largest size TFLM's int-sized planner takes, rounded up to 16 (2^31 - 16). */
    public static final long MAX_SIZE = Integer.MAX_VALUE - 15L;

    public TflmScratch {
        if (size < 0 || size > MAX_SIZE) {
            throw Require.invalid("scratch.size", Long.toString(size), size
                    + " is not a size TFLM's planner can hold (0.." + MAX_SIZE + ")");
        }
        if (first < 0 || last < first) {
            throw BerthException.invalid("scratch.last", Integer.toString(last), "scratch: steps [" + first + ", "
                    + last + "] are not an interval of steps (0 <= first <= last)");
        }
    }

    /** The name of the {@code index}-th scratch buffer in a plan: {@code scratch0}, {@code scratch1}, ... */
    public static String label(int index) {
        return "scratch" + index;
    }

    /**
     * Checks that every buffer's steps lie in the model's, {@code 0..lastStep}; {@code what} names the
     * list ({@code --tflm-scratch FILE}) in messages, whose entries are named {@code scratch[i]}.
     */
    public static void checkSteps(List<TflmScratch> scratch, int lastStep, String what) {
        for (int i = 0; i < scratch.size(); i++) {
            TflmScratch s = scratch.get(i);
            if (s.last() > lastStep) {
                String field = s.first() > lastStep ? "first" : "last";
                long v = s.first() > lastStep ? s.first() : s.last();
                throw BerthException.invalid("scratch[" + i + "]." + field, Long.toString(v), what + ": scratch[" + i
                        + "]." + field + " is step " + v + ", but the model's steps are 0.." + lastStep
                        + " as TFLM counts them (0: inputs, then one per operator)");
            }
        }
    }
}
