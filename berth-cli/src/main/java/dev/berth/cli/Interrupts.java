package dev.berth.cli;

import sun.misc.Signal;

import java.io.PrintStream;
import java.util.List;

/**
 * Ctrl-C (SIGINT) and SIGTERM while {@code berth} runs (contract §7): the first asks the running
 * searches to stop and keep what they have ({@link #requested()}, which {@code plan}'s progress
 * listener passes on as {@link dev.berth.solve.Progress#interrupted()}): {@code plan} then
 * validates and writes the best plan found so far, as always, and exits 130. The second exits
 * 130 at once, after deleting the temporary files of outputs being written
 * ({@link AtomicFiles#discardInFlight()}), so that no output is left half-written and no
 * temporary file stays behind.
 *
 * <p>Only {@code plan} run from the process's entry point ({@link Main#main}) installs the
 * handlers; a run through {@link Main#run} (the tests) has none, and nothing is ever requested.
 */
final class Interrupts {
    /** The exit code of an interrupted run: 128 + SIGINT's 2, as shells report it. */
    static final int EXIT_CODE = 130;

    private static volatile boolean allowed;
    private static volatile boolean requested;
    private static volatile PrintStream notices;

    private Interrupts() {
    }

    /** Called by the process's entry point only: {@link #install} then installs the handlers. */
    static void allow() {
        allowed = true;
    }

    /**
     * Installs the handlers of SIGINT and SIGTERM for this process, when {@link #allow} was called
     * ({@code plan} calls it as it starts; other commands keep the JVM's own: a signal ends them);
     * {@code err} hears of the first signal. A JVM that does not let them be handled (run with
     * {@code -Xrs}) keeps its own.
     */
    static void install(PrintStream err) {
        if (!allowed) {
            return;
        }
        notices = err;
        for (String name : List.of("INT", "TERM")) {
            try {
                Signal.handle(new Signal(name), s -> signalled());
            } catch (IllegalArgumentException e) {
                // this signal is the JVM's own here: it keeps its default, ending the process
            }
        }
    }

    /** What a signal does: the first asks the searches to stop, the second ends the process now. */
    static synchronized void signalled() {
        if (requested) {
            AtomicFiles.discardInFlight();
            Runtime.getRuntime().halt(EXIT_CODE);
        }
        requested = true;
        PrintStream err = notices;
        if (err != null) {
            err.println();
            err.println("berth: interrupted: the searches stop and keep the best plan found so far (again to quit "
                    + "at once)");
            err.flush();
        }
    }

    /** Whether a first signal came. */
    static boolean requested() {
        return requested;
    }
}
