package dev.berth.cli.report;

import dev.berth.arith.Checked;
import dev.berth.artifact.PlannedBuffer;

/**
 * The documented scale of one space's chart in the HTML report. Every SVG carries its
 * parameters as {@code data-} attributes ({@code data-plot-left}, {@code data-plot-top},
 * {@code data-plot-width}, {@code data-plot-height}, {@code data-steps},
 * {@code data-address-top}), so a reader can check any rectangle against the plan:
 *
 * <pre>
 *   column    = plotWidth / steps                       (pixels per step)
 *   x         = plotLeft + first * column
 *   width     = max(1, (last + 1 - first) * column)
 *   height    = max(1, reserved * plotHeight / addressTop)
 *   y         = plotTop + plotHeight * (1 - offset / addressTop) - height
 * </pre>
 *
 * Steps run left to right, addresses bottom to top (offset 0 at the bottom). Attributes are
 * written with two decimals. Pixel positions are doubles: they are drawing coordinates, not
 * sizes or addresses, and are never fed back into the plan.
 *
 * <p>{@code addressTop} is the top of the address axis: the largest of the high-water mark,
 * and each limit (capacity, capacity less the runtime reserve, the format's limit) that is at
 * most 4 × the high-water mark, plus 5 % headroom, rounded up to a multiple of the tick
 * spacing {@code tick}, the largest power of two at most a quarter of that value.
 */
record ChartScale(long steps, long addressTop, long tick, double plotWidth) {
    static final double PLOT_LEFT = 104;
    static final double PLOT_TOP = 34;
    static final double PLOT_HEIGHT = 400;
    static final double RIGHT_MARGIN = 250;
    static final double BOTTOM_MARGIN = 52;
    static final double MIN_PLOT_WIDTH = 640;
    static final double MAX_PLOT_WIDTH = 960;
    static final double PREFERRED_COLUMN = 40;

    /** A limit counts as "in view" when it is at most this many times the high-water mark. */
    static final long LIMIT_VIEW_FACTOR = 4;

    /** An axis-aligned box in SVG pixels. */
    record Box(double x, double y, double width, double height) {
    }

    /** The scale for a chart of {@code steps} steps whose contents reach {@code highWater}. */
    static ChartScale of(long steps, long highWater, long... limits) {
        assert steps > 0 && highWater >= 0;
        long view = Math.max(1, highWater);
        for (long limit : limits) {
            if (limit > view && limit / LIMIT_VIEW_FACTOR <= Math.max(1, highWater)) {
                view = limit;
            }
        }
        view = Checked.saturatingAdd(view, Math.max(1, view / 20));
        long tick = Long.highestOneBit(Math.max(1, view / 4));
        long top = Checked.saturatingAlignUp(view, tick);
        double width = Math.max(MIN_PLOT_WIDTH, Math.min(MAX_PLOT_WIDTH, steps * PREFERRED_COLUMN));
        return new ChartScale(steps, top, tick, width);
    }

    /** Pixels per step. */
    double column() {
        return plotWidth / steps;
    }

    /** The left edge of a step's column. */
    double x(long step) {
        return PLOT_LEFT + step * column();
    }

    /** The vertical position of an address (offset in the space). */
    double y(double address) {
        return PLOT_TOP + PLOT_HEIGHT * (1 - address / addressTop);
    }

    /** Whether an address (offset) lies on the axis. */
    boolean inView(long address) {
        return address <= addressTop;
    }

    Box box(PlannedBuffer b) {
        double width = Math.max(1, ((double) b.live().last() + 1 - b.live().first()) * column());
        double height = Math.max(1, b.reserved() * PLOT_HEIGHT / addressTop);
        return new Box(x(b.live().first()), y(b.offset()) - height, width, height);
    }

    double svgWidth() {
        return PLOT_LEFT + plotWidth + RIGHT_MARGIN;
    }

    double svgHeight() {
        return PLOT_TOP + PLOT_HEIGHT + BOTTOM_MARGIN;
    }
}
