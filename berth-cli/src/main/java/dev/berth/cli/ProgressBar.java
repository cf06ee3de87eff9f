package dev.berth.cli;

import dev.berth.solve.Progress;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on stderr for searches that run longer than {@link #DELAY_SECONDS}:
 * the bracket of the space being minimised, when there is one, and the time used of the time
 * limit, redrawn at most {@link #FRAMES_PER_SECOND} times a second, and erased before anything
 * else is printed. Created only when stderr is a terminal and neither
 * {@code --quiet} nor {@code --json} was given (see {@link #wanted}).
 */
final class ProgressBar implements Progress {
    static final double DELAY_SECONDS = 1.0;
    static final int FRAMES_PER_SECOND = 8;

    private final PrintStream err;
    private final int width;
    private double lastDrawn = Double.NEGATIVE_INFINITY;
    private int drawnLength;
    private String label = "";

    ProgressBar(PrintStream err, int width) {
        this.err = err;
        this.width = Math.max(30, width);
    }

    /** Whether {@code plan} shows progress: only on a terminal, never with {@code --quiet} or {@code --json}. */
    static boolean wanted(boolean quiet, boolean json, boolean stderrIsTerminal) {
        return !quiet && !json && stderrIsTerminal;
    }

    @Override
    public synchronized void searching(double elapsedSeconds, double limitSeconds) {
        if (elapsedSeconds < DELAY_SECONDS || elapsedSeconds - lastDrawn < 1.0 / FRAMES_PER_SECOND) {
            return;
        }
        lastDrawn = elapsedSeconds;
        String line = line(elapsedSeconds, limitSeconds, width, label);
        err.print('\r' + line + " ".repeat(Math.max(0, drawnLength - line.length())));
        err.flush();
        drawnLength = line.length();
    }

    /** The bar names the space being minimised and its bracket from now on. */
    @Override
    public synchronized void bracket(String space, long lower, long upper, String event) {
        label = space + " [" + lower + ", " + upper + "] ";
    }

    /** Erases the bar, if one was drawn. */
    synchronized void finish() {
        if (drawnLength > 0) {
            err.print('\r' + " ".repeat(drawnLength) + '\r');
            err.flush();
            drawnLength = 0;
        }
    }

    /** {@code searching [#######.........]  3.2 s of 10 s}, at most {@code width - 1} columns. */
    static String line(double elapsed, double limit, int width) {
        return line(elapsed, limit, width, "");
    }

    /**
     * The same, with {@code label} (such as {@code global [485376, 509952] }) after "searching",
     * when it leaves room for a bar of at least 10 columns.
     */
    static String line(double elapsed, double limit, int width, String label) {
        boolean bounded = Double.isFinite(limit) && limit > 0;
        String time = bounded ? String.format(Locale.ROOT, " %.1f s of %s s", elapsed, trim(limit))
                : String.format(Locale.ROOT, " %.1f s", elapsed);
        String prefix = "berth: searching " + label;
        if (width - 1 - prefix.length() - time.length() - 2 < 10) {
            prefix = "berth: searching ";
        }
        int bar = Math.max(10, width - 1 - prefix.length() - time.length() - 2);
        StringBuilder sb = new StringBuilder(prefix).append('[');
        if (bounded) {
            int filled = (int) Math.min(bar, Math.round(bar * elapsed / limit));
            sb.append("#".repeat(filled)).append(".".repeat(bar - filled));
        } else {
            int pos = (int) (elapsed * FRAMES_PER_SECOND) % bar;
            sb.append(".".repeat(pos)).append('#').append(".".repeat(bar - pos - 1));
        }
        return sb.append(']').append(time).toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
