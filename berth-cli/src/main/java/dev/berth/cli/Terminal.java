package dev.berth.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What little the CLI needs to know about the terminal. */
final class Terminal {
    static final int DEFAULT_COLUMNS = 100;

    private Terminal() {
    }

    /**
     * The terminal's width: {@code $COLUMNS} when set and sane; else, on an interactive
     * terminal, what {@code stty size} says; else 100.
     */
    static int columns() {
        Integer c = sane(System.getenv("COLUMNS"));
        if (c != null) {
            return c;
        }
        if (System.console() != null && new File("/dev/tty").canRead()) {
            try {
                Process p = new ProcessBuilder("stty", "size").redirectInput(new File("/dev/tty"))
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
                if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    String[] rowsCols = out.split("\\s+");
                    c = rowsCols.length == 2 ? sane(rowsCols[1]) : null;
                    if (c != null) {
                        return c;
                    }
                }
            } catch (IOException e) {
                // no stty: the default stands
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return DEFAULT_COLUMNS;
    }

    static Integer sane(String text) {
        if (text == null) {
            return null;
        }
        try {
            int v = Integer.parseInt(text.strip());
            return v >= 40 && v <= 1000 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Whether stderr is an interactive terminal: {@code System.console()} says whether the
     * process is interactive at all; on Linux {@code /proc/self/fd/2} then tells whether stderr
     * itself goes to a terminal rather than a file or pipe.
     */
    static boolean stderrIsTerminal() {
        if (System.console() == null) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return true;
        }
    }
}
